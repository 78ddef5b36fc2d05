/**
 * The Debian package's node_modules (scripts/package/node-modules.mjs): the externals and exactly what they
 * need, found the way Node finds them; a dependency that is not installed stops the build.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dependencyClosure } from '../package/node-modules.mjs';

const closure = dependencyClosure as (root: string, names: string[]) => string[];
const ROOT = resolve(import.meta.dirname, '../..');
let temp = '';

function pkg(
  dir: string,
  name: string,
  deps: Record<string, string> = {},
  optional: Record<string, string> = {},
) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name, version: '1.0.0', dependencies: deps, optionalDependencies: optional }),
  );
}

afterEach(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
  temp = '';
});

describe('the package node_modules closure', () => {
  it('follows dependencies, nested copies first, optional ones only when installed', () => {
    temp = mkdtempSync(join(tmpdir(), 'hearth-closure-'));
    const nm = join(temp, 'node_modules');
    pkg(join(nm, 'a'), 'a', { b: '1', c: '1' }, { absent: '1' });
    pkg(join(nm, 'b'), 'b');
    pkg(join(nm, 'a/node_modules/c'), 'c', { b: '1' });
    pkg(join(nm, 'c'), 'c');
    pkg(join(nm, 'unrelated'), 'unrelated');
    const found = closure(temp, ['a'])
      .map((d) => relative(temp, d))
      .sort();
    expect(found).toEqual(['node_modules/a', 'node_modules/a/node_modules/c', 'node_modules/b']);
  });

  it('refuses a dependency that is not installed', () => {
    temp = mkdtempSync(join(tmpdir(), 'hearth-closure-'));
    pkg(join(temp, 'node_modules/a'), 'a', { missing: '1' });
    expect(() => closure(temp, ['a'])).toThrow(/missing \(needed by node_modules\/a\) is not installed/);
  });

  it('takes the native modules of the real workspace with their helpers', () => {
    const found = closure(ROOT, ['better-sqlite3']).map((d) => relative(ROOT, d));
    expect(found).toContain('node_modules/better-sqlite3');
    expect(found).toContain('node_modules/bindings');
    expect(found).not.toContain('node_modules/vitest');
  });
});
