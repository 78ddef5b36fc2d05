/**
 * 7-Zip (Debian `p7zip-full`, /usr/bin/7z) for what Node cannot read: bz2/xz/lzma streams, .7z and .zipx
 * (.rar goes to bsdtar, `rar.ts`: p7zip reads RAR only with the non-free codec). 7z never gets a path:
 * the archive is passed as an inherited descriptor (`/proc/self/fd/3` in the child) and multi-entry
 * archives unpack into a private staging folder, which we then copy in through the sandbox. A per-file
 * size cap (RLIMIT_FSIZE via prlimit) and a time limit bound what 7z itself writes.
 */
import { spawn } from 'node:child_process';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { AppError } from '@hearth/contract';

export const SEVEN_ZIP = '/usr/bin/7z';
const PRLIMIT = '/usr/bin/prlimit';
const TIME_LIMIT_MS = 30 * 60_000;

/** A decompressed stream of a single-stream format (`xz`, `bzip2`, `lzma`) read from `handle`. */
export function decompressStream(handle: FileHandle, type: string): Readable {
  const child = spawn(SEVEN_ZIP, ['x', '-si', '-so', `-t${type}`], {
    stdio: [handle.fd, 'pipe', 'ignore'],
    timeout: TIME_LIMIT_MS,
  });
  const out = child.stdout as Readable;
  child.on('exit', (code) => {
    if (code !== 0 && code !== null)
      out.destroy(new AppError('ErrArchiveInvalid', { reason: `7z exit ${code}` }));
  });
  out.on('close', () => child.kill());
  return out;
}

export interface ListedEntry {
  path: string;
  size: number;
  folder: boolean;
}

function run(args: string[], handle: FileHandle, maxFileBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(PRLIMIT, [`--fsize=${maxFileBytes}`, '--', SEVEN_ZIP, ...args], {
      stdio: ['ignore', 'pipe', 'pipe', handle.fd],
      timeout: TIME_LIMIT_MS,
    });
    let out = '';
    (child.stdout as Readable).setEncoding('utf8').on('data', (s: string) => {
      if (out.length < 64 * 1024 * 1024) out += s;
    });
    (child.stderr as Readable).resume();
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(out);
      else if (signal === 'SIGXFSZ') reject(new AppError('ErrArchiveTooLarge'));
      else reject(new AppError('ErrArchiveInvalid', { reason: `7z exit ${code ?? signal}` }));
    });
  });
}

/** The archive's own listing (`7z l -slt`), used to refuse bombs and bad names before unpacking. */
export async function listArchive(handle: FileHandle): Promise<ListedEntry[]> {
  const out = await run(['l', '-slt', '-ba', '/proc/self/fd/3'], handle, 1024 * 1024);
  const entries: ListedEntry[] = [];
  for (const block of out.split(/\n\s*\n/)) {
    const fields = new Map(
      block
        .split('\n')
        .map((line) => /^([^=]+?) = (.*)$/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [m[1] ?? '', m[2] ?? '']),
    );
    const path = fields.get('Path');
    if (path === undefined) continue;
    const folder = fields.get('Folder') === '+' || (fields.get('Attributes') ?? '').startsWith('D');
    entries.push({ path, size: Number(fields.get('Size') ?? 0) || 0, folder });
  }
  return entries;
}

/** Unpacks everything into `staging` (an empty private folder), each file capped at `maxFileBytes`. */
export async function unpackTo(handle: FileHandle, staging: string, maxFileBytes: number): Promise<void> {
  await run(['x', '-y', '-bd', `-o${staging}`, '/proc/self/fd/3'], handle, maxFileBytes);
}
