import type { MantineColorsTuple } from '@mantine/core';

export const themeColorNames = [
  'primary',
  'anchor',
  'accent',
  'info',
  'success',
  'warning',
  'error',
] as const;
export type ThemeColorName = (typeof themeColorNames)[number];
export type ThemePalette = Partial<Record<ThemeColorName, string>>;

export interface ThemeDefinition {
  light: ThemePalette;
  dark: ThemePalette;
}

function parseHex(hex: string): [number, number, number] | undefined {
  const m = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(hex.trim());
  if (!m?.[1]) return undefined;
  const full = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

function mix(rgb: [number, number, number], target: number, amount: number): string {
  const channel = (c: number) => Math.round(c + (target - c) * amount);
  return '#' + rgb.map((c) => channel(c).toString(16).padStart(2, '0')).join('');
}

/** Ten shades around a base colour (index 6 is the colour itself), the tuple shape Mantine needs. */
export function shadesOf(hex: string): MantineColorsTuple | undefined {
  const rgb = parseHex(hex);
  if (!rgb) return undefined;
  const lighter = [0.92, 0.8, 0.64, 0.46, 0.28, 0.12].map((a) => mix(rgb, 255, a));
  const darker = [0.14, 0.28, 0.4].map((a) => mix(rgb, 0, a));
  return [...lighter, mix(rgb, 255, 0), ...darker] as unknown as MantineColorsTuple;
}

function isPalette(value: unknown): value is ThemePalette {
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).every((v) => typeof v === 'string');
}

/** Reads `theme.json` (`{"colors":{"light":{…},"dark":{…}}}`); anything malformed yields no colours. */
export function parseThemeJson(text: string): ThemeDefinition {
  try {
    const parsed = JSON.parse(text) as { colors?: { light?: unknown; dark?: unknown } };
    const light = isPalette(parsed.colors?.light) ? parsed.colors.light : {};
    const dark = isPalette(parsed.colors?.dark) ? parsed.colors.dark : {};
    return { light, dark };
  } catch {
    return { light: {}, dark: {} }; // a broken theme must not break the panel: defaults apply
  }
}

/** WCAG relative luminance of a hex colour. */
function luminance(rgb: [number, number, number]): number {
  const [r = 0, g = 0, b = 0] = rgb.map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two hex colours (1 to 21); 21 when one cannot be read, so nothing is changed for it. */
export function contrastRatio(a: string, b: string): number {
  const x = parseHex(a);
  const y = parseHex(b);
  if (!x || !y) return 21;
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * `hex`, or the first step of it towards black (`towards` 0) or white (255) that reads at `ratio` on every one
 * of `backgrounds`: text colours taken from a theme's palette keep their hue but stay legible (WCAG AA 4.5:1).
 */
export function readableOn(hex: string, backgrounds: string[], towards: 0 | 255, ratio = 4.5): string {
  const rgb = parseHex(hex);
  if (!rgb) return hex;
  for (let amount = 0; amount <= 1; amount += 0.05) {
    const candidate = mix(rgb, towards, amount);
    if (backgrounds.every((bg) => contrastRatio(candidate, bg) >= ratio)) return candidate;
  }
  return towards === 0 ? '#000000' : '#ffffff';
}
