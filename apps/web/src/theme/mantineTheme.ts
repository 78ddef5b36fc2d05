import { createTheme, type MantineColorsTuple, type MantineThemeOverride } from '@mantine/core';
import { shadesOf, type ThemeColorName, type ThemeDefinition } from './colors';

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
    colors,
    defaultRadius: 'md',
    fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    headings: { fontWeight: '650' },
    other: { anchor: palette.anchor },
  });
}
