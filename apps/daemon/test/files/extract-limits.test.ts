/**
 * The entry limit (files.maxExtractEntries) is judged before the first file is written, for every format: an
 * archive with one entry too many leaves the destination empty (zip by its central directory, tar and RAR by a
 * pre-pass that reads without writing, 7z by its listing). One entry fewer extracts completely.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '@hearth/contract';
import { extractArchive } from '../../src/filesystem/archive/extract';
import { BSDTAR } from '../../src/filesystem/archive/rar';
import { Sandbox } from '../../src/filesystem/sandbox';
import { craftRar } from './rar-craft';

const MAX = 50;
const limits = { maxBytes: 16 * 1024 * 1024, maxEntries: MAX };

let base: string;
let root: string;
let sandbox: Sandbox;

/** `count` small files f0…, as zip, tar, tgz, tar.xz and 7z, made by the real tools. */
async function makeSet(name: string, count: number): Promise<void> {
  const src = join(base, `src-${name}`);
  await mkdir(src);
  for (let i = 0; i < count; i += 1) await writeFile(join(src, `f${i}`), `file ${i}\n`);
  const files = Array.from({ length: count }, (_, i) => `f${i}`);
  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: src, stdio: 'ignore' });
  run('zip', ['-q', join(root, `${name}.zip`), ...files]);
  run('tar', ['-cf', join(root, `${name}.tar`), ...files]);
  run('tar', ['-czf', join(root, `${name}.tgz`), ...files]);
  run('tar', ['-cJf', join(root, `${name}.tar.xz`), ...files]);
  run('7z', ['a', '-bd', join(root, `${name}.7z`), ...files]);
  await writeFile(join(root, `${name}.rar`), craftRar(files.map((f) => ({ name: f, data: `${f}\n` }))));
}

const formats = ['zip', 'tar', 'tgz', 'tar.xz', '7z', ...(existsSync(BSDTAR) ? ['rar'] : [])];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'hearth-extract-limits-'));
  root = join(base, 'server');
  await mkdir(root);
  sandbox = new Sandbox(root);
  await makeSet('over', MAX + 1);
  await makeSet('at', MAX);
}, 60_000);
afterAll(() => rm(base, { recursive: true, force: true }));

const extract = (archive: string, destination: string) =>
  extractArchive(sandbox, archive, destination, { ...limits, stagingDir: join(base, 'staging') });

describe('entry limit before writing', () => {
  it.each(formats)('%s: one entry over the limit → ErrArchiveTooLarge, nothing written', async (ext) => {
    const destination = `out-over-${ext}`;
    const err = await extract(`over.${ext}`, destination).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isAppError(err) ? err.code : err).toBe('ErrArchiveTooLarge');
    expect(await readdir(join(root, destination))).toEqual([]);
  });

  it.each(formats)('%s: exactly the limit extracts every entry', async (ext) => {
    const destination = `out-at-${ext}`;
    const report = await extract(`at.${ext}`, destination);
    expect(report.files).toBe(MAX);
    expect(await readdir(join(root, destination))).toHaveLength(MAX);
  });
});

describe('byte limit while streaming', () => {
  it('a .gz that unpacks past files.maxExtractBytes → ErrArchiveTooLarge, no partial file, daemon unharmed', async () => {
    // A single compressed stream declares no size: only the count while streaming can stop it.
    await writeFile(join(base, 'big.txt'), 'z'.repeat(64 * 1024));
    execFileSync('gzip', ['-k', join(base, 'big.txt')]);
    await writeFile(join(root, 'big.txt.gz'), await readFile(join(base, 'big.txt.gz')));
    const err = await extractArchive(sandbox, 'big.txt.gz', 'out-bytes', {
      maxBytes: 1_000,
      maxEntries: MAX,
      stagingDir: join(base, 'staging'),
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isAppError(err) ? err.code : err).toBe('ErrArchiveTooLarge');
    expect(await readdir(join(root, 'out-bytes'))).toEqual([]);
  });
});
