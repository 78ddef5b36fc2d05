/**
 * The bench's server folder, generated once and reused (BENCH_BACKUP_DATA, default a folder under the OS temp
 * dir): thousands of small files plus a few large ones, ≥ 1 GiB, deterministic pseudo-random content (AES-256-CTR
 * of zeros under a fixed key: incompressible, like a game's compressed region files, and the same every run).
 */
import { createCipheriv } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';

const QUICK = process.env.HEARTH_BENCH_QUICK === '1';
export const SMALL_FILES = QUICK ? 200 : 6_000;
export const LARGE_FILES = 4;
export const LARGE_BYTES = (QUICK ? 8 : 224) * 1024 * 1024;
const DIRS = 60;

/** A deterministic stream of `bytes` pseudo-random bytes for `seed`. */
export function pseudoRandom(seed: number, bytes: number): Buffer {
  const key = Buffer.alloc(32, 7);
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(seed, 0);
  return createCipheriv('aes-256-ctr', key, iv).update(Buffer.alloc(bytes));
}

/** Size of small file i: 4 KiB to 68 KiB, spread deterministically. */
export const smallSize = (i: number) => 4096 + ((i * 7919) % 65536);
export const smallPath = (i: number) =>
  join(`d${String(i % DIRS).padStart(2, '0')}`, `f${String(i).padStart(5, '0')}.dat`);
export const largePath = (i: number) => join('regions', `r${i}.mca`);

async function writeLarge(path: string, seed: number): Promise<void> {
  const out = createWriteStream(path);
  const chunk = 8 * 1024 * 1024;
  for (let done = 0, part = 0; done < LARGE_BYTES; done += chunk, part += 1)
    if (!out.write(pseudoRandom(seed * 1000 + part, Math.min(chunk, LARGE_BYTES - done))))
      await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

/** The folder (made when missing, into a temp name then renamed: a killed run never leaves half of it). */
export async function ensureDataset(root: string): Promise<string> {
  const dir = join(root, QUICK ? 'quick' : 'full');
  if (existsSync(dir)) return dir;
  const temp = `${dir}.partial`;
  rmSync(temp, { recursive: true, force: true });
  for (let d = 0; d < DIRS; d += 1)
    mkdirSync(join(temp, `d${String(d).padStart(2, '0')}`), { recursive: true });
  mkdirSync(join(temp, 'regions'));
  for (let i = 0; i < SMALL_FILES; i += 1)
    writeFileSync(join(temp, smallPath(i)), pseudoRandom(i, smallSize(i)));
  for (let i = 0; i < LARGE_FILES; i += 1) await writeLarge(join(temp, largePath(i)), 100_000 + i);
  renameSync(temp, dir);
  return dir;
}
