import { DEFAULT_THEME, isLightColor, mergeMantineTheme } from '@mantine/core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contrastRatio, parseThemeJson, readableOn } from '../src/theme/colors';
import { accessibleColors, buildMantineTheme } from '../src/theme/mantineTheme';

const THEMES = join(import.meta.dirname, '../../panel/themes');

describe('contrastRatio and readableOn', () => {
  it('measures WCAG contrast', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    // Mantine's gray.6 on white, the "dimmed" text axe flagged.
    expect(contrastRatio('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
  });

  it('keeps a colour that already reads, and moves one that does not only as far as needed', () => {
    expect(readableOn('#000000', ['#ffffff'], 0)).toBe('#000000');
    const orange = readableOn('#fd7e14', ['#ffffff'], 0);
    expect(contrastRatio(orange, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    // The smallest step that reaches 4.5:1, not black: the hue stays.
    expect(contrastRatio(orange, '#ffffff')).toBeLessThan(5.2);
    const light = readableOn('#696969', ['#242424', '#2e2e2e'], 255);
    expect(contrastRatio(light, '#2e2e2e')).toBeGreaterThanOrEqual(4.5);
  });
});

describe('accessibleColors', () => {
  for (const name of ['hearth', 'midnight', 'none']) {
    for (const dark of [false, true]) {
      it(`${name} theme, ${dark ? 'dark' : 'light'}: every text variable reads at 4.5:1 on its surfaces`, () => {
        const definition =
          name === 'none'
            ? undefined
            : parseThemeJson(readFileSync(join(THEMES, name, 'theme.json'), 'utf8'));
        const theme = mergeMantineTheme(DEFAULT_THEME, buildMantineTheme(definition, dark));
        const vars = accessibleColors(theme)[dark ? 'dark' : 'light'];
        const surfaces = dark
          ? [theme.colors.dark[7], theme.colors.dark[6]]
          : ['#ffffff', theme.colors.gray[0]];
        for (const surface of surfaces) {
          expect(contrastRatio(vars['--mantine-color-dimmed'] ?? '', surface)).toBeGreaterThanOrEqual(4.5);
        }
        for (const color of Object.keys(theme.colors).filter((c) => c !== 'dark')) {
          // Filled buttons and badges: the automatic text colour is the better of black and white.
          const fill = theme.colors[color]?.[6] ?? '';
          const text = isLightColor(fill, theme.luminanceThreshold) ? '#000000' : '#ffffff';
          const other = text === '#000000' ? '#ffffff' : '#000000';
          expect(contrastRatio(text, fill), `${color} filled`).toBeGreaterThanOrEqual(
            contrastRatio(other, fill),
          );
          for (const surface of surfaces) {
            const text = vars[`--mantine-color-${color}-text`] ?? '';
            expect(contrastRatio(text, surface), `${color} text`).toBeGreaterThanOrEqual(4.5);
            const outline = vars[`--mantine-color-${color}-outline`] ?? '';
            expect(contrastRatio(outline, surface), `${color} outline`).toBeGreaterThanOrEqual(4.5);
          }
          if (!dark) {
            const onLight = vars[`--mantine-color-${color}-light-color`] ?? '';
            expect(
              contrastRatio(onLight, theme.colors[color]?.[1] ?? ''),
              `${color} light`,
            ).toBeGreaterThanOrEqual(4.5);
          }
        }
      });
    }
  }
});
