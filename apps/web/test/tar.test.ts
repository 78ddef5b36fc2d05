import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTar } from '../src/theme/tar';
import { themeFromArchive } from '../src/theme/loader';

let dir: string;
const big = 'x'.repeat(1300); // spans three 512-byte blocks
const binary = new Uint8Array(700).map((_, i) => i % 256);

function tarOf(...args: string[]): Uint8Array {
  return new Uint8Array(execFileSync('tar', ['--format=ustar', '-C', dir, '-cf', '-', ...args]));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-tar-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'theme.json'),
    JSON.stringify({ colors: { light: { primary: '#123456' }, dark: {} } }),
  );
  writeFileSync(join(dir, 'theme.css'), 'body { background: url(assets/bg.png); }\n');
  writeFileSync(join(dir, 'big.txt'), big);
  writeFileSync(join(dir, 'assets', 'bg.png'), binary);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseTar (archives made by the tar CLI)', () => {
  it('reads every regular file with its exact content and skips folders', () => {
    const entries = parseTar(tarOf('theme.json', 'theme.css', 'big.txt', 'assets'));
    expect(entries.map((e) => e.name)).toEqual(['theme.json', 'theme.css', 'big.txt', 'assets/bg.png']);
    expect(new TextDecoder().decode(entries[2]?.data)).toBe(big);
    expect([...(entries[3]?.data ?? [])]).toEqual([...binary]);
  });

  it('strips a leading ./ from names', () => {
    const entries = parseTar(tarOf('.'));
    expect(entries.map((e) => e.name).sort()).toEqual([
      'assets/bg.png',
      'big.txt',
      'theme.css',
      'theme.json',
    ]);
  });

  it('returns nothing for an empty buffer or an all-zero archive', () => {
    expect(parseTar(new Uint8Array(0))).toEqual([]);
    expect(parseTar(new Uint8Array(1024))).toEqual([]);
  });

  it('reads the default theme the panel ships', () => {
    const themes = join(import.meta.dirname, '../../panel/themes');
    const json = parseTar(readFileSync(join(themes, 'hearth.tar'))).find((e) => e.name === 'theme.json');
    expect(new TextDecoder().decode(json?.data)).toBe(
      readFileSync(join(themes, 'hearth/theme.json'), 'utf8'),
    );
  });
});

describe('themeFromArchive', () => {
  it('applies theme.json colours and swaps asset names in the CSS for blob URLs', () => {
    const theme = themeFromArchive('test', tarOf('theme.json', 'theme.css', 'assets'));
    expect(theme.definition.light.primary).toBe('#123456');
    expect(theme.css).toMatch(/url\(blob:[^)]+\)/);
    expect(theme.css).not.toContain('assets/bg.png');
    theme.release();
  });
});
