/**
 * The sandbox's rename/move, copy, chmod and search (docs/files.md § Rename, move, copy, permissions, search):
 * good paths, taken targets, missing sources, escapes through `..`, absolute paths and symlinks, chmod of a
 * symlink and the search's bounds. Real files in a temp folder, a real sibling "secret" folder outside.
 */
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@hearth/contract';
import { Sandbox } from '../../src/filesystem/sandbox';
import { defaultSearchBounds } from '../../src/filesystem/search';

let base: string;
let root: string;
let secret: string;
let sandbox: Sandbox;
const limits = { maxEntries: 1000, maxBytes: 16 * 1024 * 1024 };

async function codeOf(work: Promise<unknown>): Promise<string> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return (err as AppError).code;
}

beforeEach(async () => {
  if (base) await rm(base, { recursive: true, force: true });
  base = await mkdtemp(join(tmpdir(), 'hearth-fileops-'));
  root = join(base, 'srv');
  secret = join(base, 'srv-secret');
  await mkdir(join(root, 'world', 'region'), { recursive: true });
  await writeFile(join(root, 'world', 'level.dat'), 'level');
  await writeFile(join(root, 'world', 'region', 'r.0.0.mca'), 'region');
  await writeFile(join(root, 'server.properties'), 'motd=hi');
  await mkdir(secret);
  await writeFile(join(secret, 'key'), 'top secret');
  await symlink(secret, join(root, 'out'));
  await symlink(join(secret, 'key'), join(root, 'key-link'));
  sandbox = new Sandbox(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const names = async (folder: string) => (await readdir(join(root, folder))).sort();

describe('rename and move', () => {
  it('renames a file and moves a folder into another folder', async () => {
    await sandbox.rename('server.properties', 'server.old', { overwrite: false });
    expect(await readFile(join(root, 'server.old'), 'utf8')).toBe('motd=hi');
    await mkdir(join(root, 'backup'));
    await sandbox.rename('world', 'backup/world', { overwrite: false });
    expect(await names('backup/world')).toEqual(['level.dat', 'region']);
    expect(await sandbox.exists('world')).toBe(false);
  });

  it('refuses a taken target unless asked to overwrite, then replaces a file or a whole folder', async () => {
    await writeFile(join(root, 'other.txt'), 'other');
    expect(await codeOf(sandbox.rename('server.properties', 'other.txt', { overwrite: false }))).toBe(
      'ErrFileExists',
    );
    expect(await readFile(join(root, 'other.txt'), 'utf8')).toBe('other');
    await sandbox.rename('server.properties', 'other.txt', { overwrite: true, replaceFolders: true });
    expect(await readFile(join(root, 'other.txt'), 'utf8')).toBe('motd=hi');
    await mkdir(join(root, 'old', 'deep'), { recursive: true });
    await writeFile(join(root, 'old', 'deep', 'x'), 'x');
    expect(await codeOf(sandbox.rename('world', 'old', { overwrite: false }))).toBe('ErrFileExists');
    await sandbox.rename('world', 'old', { overwrite: true, replaceFolders: true });
    expect(await names('old')).toEqual(['level.dat', 'region']);
    expect((await readdir(root)).some((n) => n.startsWith('.hearth-'))).toBe(false);
  });

  it('answers a missing source with ErrFileNotFound and a missing target folder with ErrFileNotFound', async () => {
    expect(await codeOf(sandbox.rename('nope.txt', 'x.txt', { overwrite: false }))).toBe('ErrFileNotFound');
    expect(await codeOf(sandbox.rename('server.properties', 'no/such/x', { overwrite: false }))).toBe(
      'ErrFileNotFound',
    );
  });

  it('never moves a folder into itself', async () => {
    expect(await codeOf(sandbox.rename('world', 'world/region/world', { overwrite: false }))).toBe(
      'ErrMoveIntoItself',
    );
    expect(await codeOf(sandbox.rename('world', 'world', { overwrite: true }))).toBe('ErrMoveIntoItself');
    // a sibling sharing the prefix is not inside
    await sandbox.rename('world', 'world2', { overwrite: false });
    expect(await sandbox.isDirectory('world2')).toBe(true);
  });

  it('refuses .., absolute paths and symlinked folders on either side, and the root itself', async () => {
    const cases: Array<[string, string]> = [
      ['../srv-secret/key', 'stolen'],
      ['server.properties', '../srv-secret/planted'],
      ['/etc/hostname', 'h'],
      ['server.properties', '/tmp/planted'],
      ['out/key', 'stolen'],
      ['server.properties', 'out/planted'],
      ['', 'root-moved'],
    ];
    for (const [from, to] of cases)
      expect(await codeOf(sandbox.rename(from, to, { overwrite: true })), `${from} → ${to}`).toBe(
        'ErrIllegalFileAccess',
      );
    expect(await readdir(secret)).toEqual(['key']);
    expect(await readFile(join(root, 'server.properties'), 'utf8')).toBe('motd=hi');
  });

  it('renames a symlink itself, never its target', async () => {
    await sandbox.rename('key-link', 'renamed-link', { overwrite: false });
    expect((await lstat(join(root, 'renamed-link'))).isSymbolicLink()).toBe(true);
    expect(await readdir(secret)).toEqual(['key']);
  });
});

describe('copy', () => {
  it('copies a file and a folder tree with contents and modes', async () => {
    await sandbox.chmod('world/level.dat', 0o600);
    const one = await sandbox.copy('server.properties', 'copy.properties', { overwrite: false, limits });
    expect(one).toMatchObject({ path: 'copy.properties', files: 1, folders: 0, bytes: 7, skipped: [] });
    expect(await readFile(join(root, 'copy.properties'), 'utf8')).toBe('motd=hi');
    await symlink(secret, join(root, 'world', 'sneaky'));
    const tree = await sandbox.copy('world', 'world-copy', { overwrite: false, limits });
    expect(tree).toMatchObject({ path: 'world-copy', files: 2, folders: 2 });
    expect(tree.skipped).toEqual([{ name: 'sneaky', reason: 'symlink' }]);
    expect(await names('world-copy')).toEqual(['level.dat', 'region']);
    expect(await readFile(join(root, 'world-copy', 'region', 'r.0.0.mca'), 'utf8')).toBe('region');
    expect((await stat(join(root, 'world-copy', 'level.dat'))).mode & 0o777).toBe(0o600);
    // the original is untouched, and no temp names are left
    expect(await names('world')).toEqual(['level.dat', 'region', 'sneaky']);
    expect((await readdir(root)).some((n) => n.startsWith('.hearth-'))).toBe(false);
  });

  it('refuses a taken target unless asked to overwrite', async () => {
    await writeFile(join(root, 'taken.txt'), 'mine');
    expect(await codeOf(sandbox.copy('server.properties', 'taken.txt', { overwrite: false, limits }))).toBe(
      'ErrFileExists',
    );
    expect(await readFile(join(root, 'taken.txt'), 'utf8')).toBe('mine');
    await sandbox.copy('server.properties', 'taken.txt', { overwrite: true, limits });
    expect(await readFile(join(root, 'taken.txt'), 'utf8')).toBe('motd=hi');
    await mkdir(join(root, 'dest'));
    await writeFile(join(root, 'dest', 'stale'), 'stale');
    await sandbox.copy('world', 'dest', { overwrite: true, limits });
    expect(await names('dest')).toEqual(['level.dat', 'region']);
  });

  it('answers a missing source, a folder into itself, escapes and a symlink source with catalogued codes', async () => {
    expect(await codeOf(sandbox.copy('nope', 'x', { overwrite: false, limits }))).toBe('ErrFileNotFound');
    expect(await codeOf(sandbox.copy('world', 'world/region/again', { overwrite: false, limits }))).toBe(
      'ErrMoveIntoItself',
    );
    for (const [from, to] of [
      ['key-link', 'key-copy'],
      ['out/key', 'key-copy'],
      ['../srv-secret/key', 'key-copy'],
      ['server.properties', '../srv-secret/planted'],
      ['server.properties', 'out/planted'],
      ['/etc/hostname', 'h'],
    ] as const)
      expect(await codeOf(sandbox.copy(from, to, { overwrite: true, limits })), `${from} → ${to}`).toBe(
        'ErrIllegalFileAccess',
      );
    expect(await readdir(secret)).toEqual(['key']);
    expect(await sandbox.exists('key-copy')).toBe(false);
  });

  it('keeps to the byte and entry limits before writing anything', async () => {
    await writeFile(join(root, 'big.bin'), Buffer.alloc(64 * 1024));
    expect(
      await codeOf(
        sandbox.copy('big.bin', 'big2.bin', { overwrite: false, limits: { maxEntries: 10, maxBytes: 1024 } }),
      ),
    ).toBe('ErrCopyTooLarge');
    expect(
      await codeOf(
        sandbox.copy('world', 'w2', { overwrite: false, limits: { maxEntries: 1, maxBytes: 1 << 20 } }),
      ),
    ).toBe('ErrCopyTooLarge');
    expect(
      (await readdir(root)).filter((n) => n.startsWith('.hearth-') || n === 'w2' || n === 'big2.bin'),
    ).toEqual([]);
  });
});

describe('chmod', () => {
  it('sets permission bits of a file and a folder', async () => {
    await sandbox.chmod('server.properties', 0o640);
    expect((await stat(join(root, 'server.properties'))).mode & 0o7777).toBe(0o640);
    await sandbox.chmod('world', 0o750);
    expect((await stat(join(root, 'world'))).mode & 0o7777).toBe(0o750);
    const listed = (await sandbox.list('')).find((e) => e.name === 'world');
    expect((listed?.stats.mode ?? 0) & 0o777).toBe(0o750);
  });

  it('refuses setuid, setgid, sticky and out-of-range modes', async () => {
    for (const mode of [0o4755, 0o2755, 0o1777, -1, 0o1000, 1.5])
      expect(await codeOf(sandbox.chmod('server.properties', mode)), String(mode)).toBe('ErrFieldInvalid');
    expect((await stat(join(root, 'server.properties'))).mode & 0o7000).toBe(0);
  });

  it('refuses a symlink (its target outside stays as it was), escapes, the root and a missing path', async () => {
    const before = (await stat(join(secret, 'key'))).mode;
    expect(await codeOf(sandbox.chmod('key-link', 0o777))).toBe('ErrIllegalFileAccess');
    expect(await codeOf(sandbox.chmod('out', 0o777))).toBe('ErrIllegalFileAccess');
    expect(await codeOf(sandbox.chmod('out/key', 0o777))).toBe('ErrIllegalFileAccess');
    expect(await codeOf(sandbox.chmod('../srv-secret/key', 0o777))).toBe('ErrIllegalFileAccess');
    expect(await codeOf(sandbox.chmod('/etc/hostname', 0o777))).toBe('ErrIllegalFileAccess');
    expect(await codeOf(sandbox.chmod('', 0o777))).toBe('ErrIllegalFileAccess');
    expect(await codeOf(sandbox.chmod('nope', 0o644))).toBe('ErrFileNotFound');
    expect((await stat(join(secret, 'key'))).mode).toBe(before);
    expect((await stat(secret)).mode & 0o777).not.toBe(0o777);
  });
});

describe('search', () => {
  it('finds names by substring or glob, ignoring case, below a folder', async () => {
    const sub = await sandbox.search('', 'LEVEL', defaultSearchBounds());
    expect(sub.results.map((r) => r.path)).toEqual(['world/level.dat']);
    expect(sub.results[0]).toMatchObject({ name: 'level.dat', isFile: true, size: 5 });
    const glob = await sandbox.search('', '*.mca', defaultSearchBounds());
    expect(glob.results.map((r) => r.path)).toEqual(['world/region/r.0.0.mca']);
    expect(glob.truncated).toBe(false);
    const folder = await sandbox.search('world', 'region', defaultSearchBounds());
    expect(folder.results).toEqual([expect.objectContaining({ path: 'world/region', isFile: false })]);
    // a glob is the whole name: '*.ma' does not match 'r.0.0.mca'
    expect((await sandbox.search('', '*.ma', defaultSearchBounds())).results).toEqual([]);
  });

  it('matches symlinks by name but never searches through them', async () => {
    const res = await sandbox.search('', 'key', defaultSearchBounds());
    expect(res.results.map((r) => r.path)).toEqual(['key-link']);
    expect(await codeOf(sandbox.search('out', 'key', defaultSearchBounds()))).toBe('ErrIllegalFileAccess');
    expect(await codeOf(sandbox.search('../srv-secret', 'key', defaultSearchBounds()))).toBe(
      'ErrIllegalFileAccess',
    );
  });

  it('stops at the result limit, the depth and the entry bound, and says so', async () => {
    await mkdir(join(root, 'many'));
    for (let i = 0; i < 30; i += 1) await writeFile(join(root, 'many', `log-${i}.txt`), '');
    const limited = await sandbox.search('', 'log-', { ...defaultSearchBounds(), limit: 10 });
    expect(limited.results).toHaveLength(10);
    expect(limited.truncated).toBe(true);
    await mkdir(join(root, 'a', 'b', 'c', 'd'), { recursive: true });
    await writeFile(join(root, 'a', 'b', 'c', 'd', 'deep.txt'), '');
    const shallow = await sandbox.search('', 'deep', { ...defaultSearchBounds(), maxDepth: 2 });
    expect(shallow.results).toEqual([]);
    expect(shallow.truncated).toBe(true);
    const deep = await sandbox.search('', 'deep', defaultSearchBounds());
    expect(deep.results.map((r) => r.path)).toEqual(['a/b/c/d/deep.txt']);
    const few = await sandbox.search('', 'deep', { ...defaultSearchBounds(), maxEntries: 5 });
    expect(few.truncated).toBe(true);
    expect(few.results).toEqual([]);
    const timed = await sandbox.search('', 'deep', { ...defaultSearchBounds(), maxMs: -1 });
    expect(timed).toEqual({ results: [], truncated: true });
  });
});
