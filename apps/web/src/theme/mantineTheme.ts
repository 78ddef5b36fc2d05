import {
  createTheme,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type MantineThemeOverride,
} from '@mantine/core';
import { readableOn, shadesOf, type ThemeColorName, type ThemeDefinition } from './colors';

/** Which Mantine palette each theme.json colour replaces. */
const paletteOf: Partial<Record<ThemeColorName, string>> = {
  primary: 'brand',
  accent: 'violet',
  info: 'blue',
  success: 'green',
  warning: 'yellow',
  error: 'red',
};

const fallbackBrand = shadesOf('#e8590c') as MantineColorsTuple;

/** Mantine theme for the chosen colour scheme: theme.json light or dark colours as palettes. */
export function buildMantineTheme(
  definition: ThemeDefinition | undefined,
  dark: boolean,
): MantineThemeOverride {
  const palette = (dark ? definition?.dark : definition?.light) ?? {};
  const colors: Record<string, MantineColorsTuple> = { brand: fallbackBrand };
  for (const [name, target] of Object.entries(paletteOf)) {
    const shades = palette[name as ThemeColorName] && shadesOf(palette[name as ThemeColorName] as string);
    if (shades && target) colors[target] = shades;
  }
  return createTheme({
    primaryColor: 'brand',
    primaryShade: { light: 6, dark: 6 },
    // Text on filled buttons follows the fill: the dark themes' light greens and oranges get dark text, not
    // white (issue 16: "Restart is white on light green in dark mode").
    autoContrast: true,
    // Black or white text, whichever contrasts more: 0.179 is the luminance where both read the same (WCAG).
    // Mantine's 0.3 put white on mid blues (#0284c7, 4.1:1) where black reads at 5:1.
    luminanceThreshold: 0.179,
    colors,
    defaultRadius: 'md',
    fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    headings: { fontWeight: '650' },
    other: { anchor: palette.anchor },
  });
}

/** Secondary ("dimmed") text: Mantine's gray.6 / dark.2 read at about 3.3:1; these keep 4.5:1 on every surface. */
const DIMMED = { light: '#5c636a', dark: '#b0b0b0' };

/**
 * Colour variables that keep text legible (WCAG AA, 4.5:1; e2e/a11y.test.ts scans every screen in both modes):
 * dimmed text, coloured text (`c="orange"`) and the text of light and outline buttons and badges. Each keeps its palette's
 * hue and is darkened (light mode) or lightened (dark mode) only as far as its background needs, so a theme's
 * own colours still show. Mantine merges these over its defaults.
 */
export const accessibleColors: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = { '--mantine-color-dimmed': DIMMED.light };
  const dark: Record<string, string> = { '--mantine-color-dimmed': DIMMED.dark };
  const white = theme.white;
  const surfaces = {
    light: [white, theme.colors.gray[0]],
    dark: [theme.colors.dark[7], theme.colors.dark[6]],
  };
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (name === 'dark') continue;
    light[`--mantine-color-${name}-text`] = readableOn(shades[6], surfaces.light, 0);
    light[`--mantine-color-${name}-light-color`] = readableOn(shades[9], [shades[1]], 0);
    light[`--mantine-color-${name}-outline`] = readableOn(shades[6], surfaces.light, 0);
    dark[`--mantine-color-${name}-text`] = readableOn(shades[4], surfaces.dark, 255);
    dark[`--mantine-color-${name}-outline`] = readableOn(shades[2], surfaces.dark, 255);
  }
  return { variables: {}, light, dark };
};
