/**
 * RAR extraction with the real bsdtar (libarchive-tools) on hand-crafted RAR 4.x archives (`rar-craft.ts`):
 * byte-for-byte round trip, zip-slip / absolute / symlink entries skipped, bombs refused.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@hearth/contract';
import { extractArchive } from '../../src/filesystem/archive/extract';
import { BSDTAR } from '../../src/filesystem/archive/rar';
import { Sandbox } from '../../src/filesystem/sandbox';
import { craftRar, type RarEntry } from './rar-craft';

/** In CI a missing bsdtar is a failure; locally the suite is skipped with the reason printed. */
function bsdtarAvailable(): boolean {
  if (existsSync(BSDTAR)) return true;
  const reason = `${BSDTAR} is missing (apt-get install libarchive-tools)`;
  if (process.env.CI === 'true') throw new Error(`CI needs the RAR reader: ${reason}`);
  console.warn(`skipping RAR tests: ${reason}`);
  return false;
}

let base: string; // <base>/server is the server root; <base>/canary.txt lies outside it
let root: string;
let sandbox: Sandbox;
const limits = { maxBytes: 16 * 1024 * 1024, maxEntries: 1000 };
const random = randomBytes(100_000);

async function put(name: string, entries: RarEntry[]): Promise<void> {
  await writeFile(join(root, name), craftRar(entries));
}

function extract(name: string, destination: string) {
  return extractArchive(sandbox, name, destination, { ...limits, stagingDir: join(base, 'staging') });
}

async function refusal(work: Promise<unknown>): Promise<AppError> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

const normal: RarEntry[] = [
  { name: 'world', kind: 'folder' },
  { name: 'world/region', kind: 'folder' },
  { name: 'world/level.dat', data: 'level' },
  { name: 'world/region/r.0.0.mca', data: random },
  { name: 'empty.txt', data: '' },
  { name: 'über/straße.txt', data: 'utf-8 names' }, // parent folder without its own entry
];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'hearth-rar-'));
  root = join(base, 'server');
  await mkdir(root);
  await writeFile(join(base, 'canary.txt'), 'canary');
  sandbox = new Sandbox(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe.skipIf(!bsdtarAvailable())('RAR extraction through bsdtar', () => {
  it('the real reader accepts the hand-crafted archive', async () => {
    await put('listed.rar', normal);
    const listing = execFileSync(BSDTAR, ['-tf', join(root, 'listed.rar')], { encoding: 'utf8' });
    expect(listing.trim().split('\n')).toEqual(normal.map((e) => e.name));
    const verbose = execFileSync(BSDTAR, ['-tvf', join(root, 'listed.rar')], { encoding: 'utf8' });
    expect(verbose).toMatch(/^d.*world\n/m);
    expect(verbose).toContain(` ${random.length} `);
  });

  it('extracts nested folders byte for byte', async () => {
    await put('normal.rar', normal);
    const report = await extract('normal.rar', 'out');
    expect(report).toMatchObject({ files: 4, folders: 2, skipped: [] });
    expect(report.bytes).toBe(random.length + 5 + 11);
    expect(await readFile(join(root, 'out', 'world', 'level.dat'), 'utf8')).toBe('level');
    expect((await readFile(join(root, 'out', 'world', 'region', 'r.0.0.mca'))).equals(random)).toBe(true);
    expect(await readFile(join(root, 'out', 'empty.txt'), 'utf8')).toBe('');
    expect(await readFile(join(root, 'out', 'über', 'straße.txt'), 'utf8')).toBe('utf-8 names');
  });

  it('skips ../, absolute and symlink entries and writes nothing outside the root', async () => {
    await put('evil.rar', [
      { name: '../../canary.txt', data: 'pwned' },
      { name: '../escape.txt', data: 'pwned' },
      { name: join(base, 'absolute.txt'), data: 'pwned' },
      { name: 'link', kind: 'symlink', data: base },
      { name: 'link/through.txt', data: 'pwned' },
      { name: 'good/ok.txt', data: 'fine' },
    ]);
    const report = await extract('evil.rar', 'evil');
    expect(report.skipped).toEqual([
      { name: '../../canary.txt', reason: 'unsafe name' },
      { name: '../escape.txt', reason: 'unsafe name' },
      { name: join(base, 'absolute.txt'), reason: 'unsafe name' },
      { name: 'link', reason: 'link or special file' },
    ]);
    expect(await readFile(join(base, 'canary.txt'), 'utf8')).toBe('canary');
    await expect(stat(join(root, 'escape.txt'))).rejects.toThrow();
    await expect(stat(join(base, 'absolute.txt'))).rejects.toThrow();
    await expect(stat(join(base, 'through.txt'))).rejects.toThrow();
    expect((await lstat(join(root, 'evil', 'link'))).isDirectory()).toBe(true); // a folder, never a link
    expect(await readFile(join(root, 'evil', 'good', 'ok.txt'), 'utf8')).toBe('fine');
    expect((await readdir(base)).sort()).toEqual(['canary.txt', 'server']);
  });

  it('refuses a header that declares more than the byte limit, leaving nothing', async () => {
    await put('bomb.rar', [{ name: 'bomb.bin', data: 'x', declaredSize: 10 * 1024 ** 3 }]);
    expect((await refusal(extract('bomb.rar', 'bomb'))).code).toBe('ErrArchiveTooLarge');
    expect(await readdir(join(root, 'bomb'))).toEqual([]);
  });

  it('refuses more entries than the entry limit', async () => {
    const many = Array.from({ length: limits.maxEntries + 1 }, (_, i) => ({ name: `f${i}`, data: '' }));
    await put('many.rar', many);
    expect((await refusal(extract('many.rar', 'many'))).code).toBe('ErrArchiveTooLarge');
  });

  it('reports a damaged, truncated or foreign file as an invalid archive', async () => {
    const good = craftRar(normal);
    const damaged = Buffer.from(good);
    const at = good.indexOf('world') - 1; // a header byte: its CRC no longer matches
    damaged.writeUInt8(good.readUInt8(at) ^ 0xff, at);
    await writeFile(join(root, 'header.rar'), damaged);
    await writeFile(join(root, 'truncated.rar'), good.subarray(0, good.indexOf(random) + 1000));
    await writeFile(join(root, 'text.rar'), 'not an archive at all');
    for (const name of ['header.rar', 'truncated.rar', 'text.rar']) {
      const err = await refusal(extract(name, `bad-${name}`));
      expect(err.code, err.message).toBe('ErrArchiveInvalid');
    }
  });
});
