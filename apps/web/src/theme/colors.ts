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
