/**
 * The export's tar writer (transfer/pack.ts) on real files: GNU tar reads what it writes — long names through
 * PAX headers, links as links, modes and times — and a symlink to a folder outside is sent as a link, never
 * followed, while special files are left out.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  rm,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packFolder, type PackCounts } from '../src/transfer/pack';

describe('transfer export tar writer', () => {
  let base: string;
  const long = `${'a'.repeat(120)}/${'b'.repeat(120)}`;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'hearth-pack-'));
    const src = join(base, 'src');
    await mkdir(join(src, long), { recursive: true });
    await writeFile(join(src, long, 'c'.repeat(150)), 'deep\n');
    await writeFile(join(src, 'run.sh'), '#!/bin/sh\n');
    await chmod(join(src, 'run.sh'), 0o750);
    await utimes(join(src, 'run.sh'), new Date('2023-05-06T07:08:09Z'), new Date('2023-05-06T07:08:09Z'));
    await writeFile(join(src, 'big.bin'), Buffer.alloc(3 * 1024 * 1024 + 7, 7));
    await mkdir(join(base, 'elsewhere'));
    await writeFile(join(base, 'elsewhere', 'private.txt'), 'not the server’s');
    await symlink(join(base, 'elsewhere'), join(src, 'outside'));
    await symlink('x'.repeat(130), join(src, 'long-target'));
    execFileSync('mkfifo', [join(src, 'pipe')]);
  });
  afterAll(async () => {
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('writes an archive GNU tar extracts to the same tree, links unfollowed, a FIFO left out', async () => {
    const counts: PackCounts = { skipped: 0 };
    const tarFile = join(base, 'out.tar');
    await pipeline(Readable.from(packFolder(join(base, 'src'), counts)), createWriteStream(tarFile));
    expect(counts.skipped).toBe(1);
    const listing = execFileSync('tar', ['-tf', tarFile]).toString().split('\n');
    expect(listing.some((line) => line.includes('private.txt'))).toBe(false);
    expect(listing).toContain('run.sh');
    expect(listing).not.toContain('pipe');

    const out = join(base, 'out');
    await mkdir(out);
    execFileSync('tar', ['-xf', tarFile, '-C', out]);
    expect(await readFile(join(out, long, 'c'.repeat(150)), 'utf8')).toBe('deep\n');
    const script = await lstat(join(out, 'run.sh'));
    expect(script.mode & 0o777).toBe(0o750);
    expect(script.mtime.toISOString()).toBe('2023-05-06T07:08:09.000Z');
    expect((await readFile(join(out, 'big.bin'))).equals(Buffer.alloc(3 * 1024 * 1024 + 7, 7))).toBe(true);
    expect(await readlink(join(out, 'outside'))).toBe(join(base, 'elsewhere'));
    expect(await readlink(join(out, 'long-target'))).toBe('x'.repeat(130));
  });
});
