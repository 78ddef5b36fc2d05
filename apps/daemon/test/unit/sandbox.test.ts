import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@hearth/contract';
import { isInside, lexicalPath } from '../../src/filesystem/paths';
import { Sandbox } from '../../src/filesystem/sandbox';

let base: string;
let root: string; // <base>/a
let secret: string; // <base>/a-secret, a sibling sharing the prefix
let sandbox: Sandbox;

async function refusal(work: Promise<unknown>): Promise<string> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('ErrIllegalFileAccess');
  return String((err as AppError).metadata?.reason);
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'hearth-sandbox-'));
  root = join(base, 'a');
  secret = join(base, 'a-secret');
  await mkdir(join(root, 'inner'), { recursive: true });
  await mkdir(secret);
  await writeFile(join(secret, 'key'), 'top secret');
  await symlink(secret, join(root, 'out')); // symlink to a directory outside
  await symlink(join(secret, 'key'), join(root, 'key-link')); // symlink to a file outside
  await symlink('inner', join(root, 'in')); // relative symlink that stays inside
  sandbox = new Sandbox(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('path rules', () => {
  it('decides containment by path, not by string prefix', () => {
    expect(isInside('/srv/a', '/srv/a')).toBe(true);
    expect(isInside('/srv/a', '/srv/a/b/c')).toBe(true);
    expect(isInside('/srv/a', '/srv/a-secret')).toBe(false);
    expect(isInside('/srv/a', '/srv/a-secret/x')).toBe(false);
    expect(isInside('/srv/a', '/srv')).toBe(false);
    expect(isInside('/srv/a', '/srv/a/..b')).toBe(true); // a file named "..b" is inside
  });

  it('refuses .., absolute paths, drive letters and NUL bytes', () => {
    const cases: Array<[string, RegExp]> = [
      ['../a-secret/key', /\.\./],
      ['inner/../../a-secret', /\.\./],
      ['inner\\..\\..\\x', /\.\./],
      ['/etc/passwd', /absolute/],
      ['C:\\Windows', /absolute/],
      ['ok\0.txt', /NUL/],
    ];
    for (const [path, reason] of cases) {
      expect(() => lexicalPath('/srv/a', path), path).toThrow(AppError);
      try {
        lexicalPath('/srv/a', path);
      } catch (err) {
        expect(String((err as AppError).metadata?.reason)).toMatch(reason);
      }
    }
  });

  it('treats percent-encoded sequences literally (no decoding, so no escape)', () => {
    expect(lexicalPath('/srv/a', '%2e%2e/%2e%2e/etc')).toBe('/srv/a/%2e%2e/%2e%2e/etc');
    expect(lexicalPath('/srv/a', '..%2fa-secret')).toBe('/srv/a/..%2fa-secret');
  });

  it('accepts ordinary relative paths and normalises them below the root', () => {
    expect(lexicalPath('/srv/a', 'x/./y//z')).toBe('/srv/a/x/y/z');
    expect(lexicalPath('/srv/a', '')).toBe('/srv/a');
    expect(lexicalPath('/srv/a', '.')).toBe('/srv/a');
  });
});

describe('Sandbox', () => {
  it('resolves paths inside, existing or not, and through a symlink that stays inside', async () => {
    expect(await sandbox.resolve('inner/new/file.txt')).toBe(join(root, 'inner/new/file.txt'));
    expect(await sandbox.resolve('in/x')).toBe(join(root, 'in/x'));
  });

  it('refuses a symlink leading out, and any path below a symlinked parent that leads out', async () => {
    expect(await refusal(sandbox.resolve('key-link'))).toMatch(/symlink/);
    expect(await refusal(sandbox.resolve('out'))).toMatch(/symlink/);
    expect(await refusal(sandbox.resolve('out/key'))).toMatch(/symlink/);
    expect(await refusal(sandbox.resolve('out/new/deeper.txt'))).toMatch(/symlink/);
  });

  it('writes nothing outside through any of these paths', async () => {
    for (const path of ['out/planted', 'key-link', '../a-secret/planted', '/tmp/planted', 'x\0y']) {
      await refusal(sandbox.writeAtomic(path, 'pwned'));
      await refusal(sandbox.mkdirp(path));
    }
    expect((await readdir(secret)).sort()).toEqual(['key']);
  });

  it('refuses the sibling with the same prefix (/srv/a vs /srv/a-secret)', async () => {
    expect(await refusal(sandbox.resolve('../a-secret/key'))).toMatch(/\.\./);
    await symlink('../a-secret', join(root, 'sibling'));
    expect(await refusal(sandbox.resolve('sibling/key'))).toMatch(/symlink/);
  });

  it('writes atomically inside and checks both ends of a move', async () => {
    await sandbox.writeAtomic('inner/hello.txt', 'hi');
    expect(await sandbox.readText('inner/hello.txt')).toBe('hi');
    await refusal(sandbox.move('inner/hello.txt', 'out/hello.txt'));
    expect(await sandbox.exists('inner/hello.txt')).toBe(true);
    expect((await readdir(join(root, 'inner'))).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('lists every entry of a large folder with its own stats, links as links, across lstat slices', async () => {
    await mkdir(join(root, 'large'));
    for (let i = 0; i < 1100; i += 1) await writeFile(join(root, 'large', `f-${i}`), 'x'.repeat(i % 7));
    await symlink(secret, join(root, 'large', 'zz-out'));
    const entries = await sandbox.list('large');
    expect(entries).toHaveLength(1101);
    const byName = new Map(entries.map((e) => [e.name, e.stats]));
    expect(byName.get('f-1099')?.size).toBe(1099 % 7);
    expect(byName.get('zz-out')?.isSymbolicLink()).toBe(true);
    expect(byName.get('zz-out')?.isDirectory()).toBe(false);
  });
});
