/**
 * `GET …/extract/{path}?destination=` and the `extract` processor. The format
 * follows the file name; every byte lands through the sandbox below `destination`, within the budget.
 */
import { createReadStream } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { AppError } from '@hearth/contract';
import type { Sandbox } from '../sandbox';
import { Budget, entryPath, type ExtractLimits, type ExtractReport } from './limits';
import { decompressStream, listArchive, unpackTo } from './sevenzip';

// The tar, zip and RAR readers load with the first archive, not at start (docs/performance.md § Start-up).

export interface ExtractOptions extends ExtractLimits {
  /** A folder only the daemon uses (data dir), for formats 7-Zip unpacks itself. */
  stagingDir: string;
}

type Format =
  | { kind: 'zip' }
  | { kind: 'tar'; compression: 'none' | 'gzip' | 'xz' | 'bzip2' | 'lzma' }
  | { kind: 'stream'; compression: 'gzip' | 'xz' | 'bzip2' | 'lzma'; suffix: string }
  | { kind: '7z' }
  | { kind: 'rar' };

export function formatOf(name: string): Format {
  const lower = name.toLowerCase();
  const tarred = (c: 'gzip' | 'xz' | 'bzip2' | 'lzma', ...exts: string[]): Format | null =>
    exts.some((e) => lower.endsWith(e)) ? { kind: 'tar', compression: c } : null;
  if (lower.endsWith('.zip') || lower.endsWith('.jar')) return { kind: 'zip' };
  if (lower.endsWith('.tar')) return { kind: 'tar', compression: 'none' };
  const tar =
    tarred('gzip', '.tar.gz', '.tgz') ??
    tarred('xz', '.tar.xz', '.txz') ??
    tarred('bzip2', '.tar.bz2', '.tbz2', '.tbz') ??
    tarred('lzma', '.tar.lzma');
  if (tar) return tar;
  for (const [suffix, compression] of [
    ['.gz', 'gzip'],
    ['.xz', 'xz'],
    ['.bz2', 'bzip2'],
    ['.lzma', 'lzma'],
  ] as const) {
    if (lower.endsWith(suffix)) return { kind: 'stream', compression, suffix };
  }
  if (lower.endsWith('.rar')) return { kind: 'rar' };
  if (lower.endsWith('.7z') || lower.endsWith('.zipx')) return { kind: '7z' };
  throw new AppError('ErrArchiveInvalid', { reason: 'unsupported archive type' });
}

async function openStream(sandbox: Sandbox, archive: string, compression: string) {
  const handle = await sandbox.open(archive);
  if (compression === 'none') return { handle, stream: handle.createReadStream({ autoClose: false }) };
  if (compression === 'gzip')
    return { handle, stream: handle.createReadStream({ autoClose: false }).pipe(createGunzip()) };
  return { handle, stream: decompressStream(handle, compression) };
}

/** Copies a 7-Zip staging folder in through the sandbox; links and special files are skipped. */
async function copyStaged(sandbox: Sandbox, dir: string, rel: string, dest: string, budget: Budget) {
  for (const name of await readdir(join(dir, rel))) {
    const relName = rel ? `${rel}/${name}` : name;
    const info = await lstat(join(dir, relName));
    budget.entry();
    const target = entryPath(dest, relName);
    if (target === null) budget.skip(relName, 'unsafe name');
    else if (info.isDirectory()) {
      await sandbox.mkdirp(target);
      budget.report.folders += 1;
      await copyStaged(sandbox, dir, relName, dest, budget);
    } else if (!info.isFile()) budget.skip(relName, 'link or special file');
    else {
      budget.declared(info.size);
      await sandbox.writeStreamAtomic(target, budget.meter(createReadStream(join(dir, relName))));
      budget.report.files += 1;
    }
  }
}

async function extractSeven(
  sandbox: Sandbox,
  archive: string,
  dest: string,
  budget: Budget,
  opts: ExtractOptions,
) {
  const handle = await sandbox.open(archive);
  await mkdir(opts.stagingDir, { recursive: true, mode: 0o700 });
  const staging = await mkdtemp(join(opts.stagingDir, 'extract-'));
  try {
    const listed = await listArchive(handle);
    for (const entry of listed) {
      budget.entry();
      if (entryPath(dest, entry.path) === null) budget.skip(entry.path, 'unsafe name');
    }
    const declared = listed.reduce((sum, e) => sum + e.size, 0);
    if (declared > opts.maxBytes) throw new AppError('ErrArchiveTooLarge');
    await unpackTo(handle, staging, opts.maxBytes);
    const counted = new Budget(opts);
    await copyStaged(sandbox, staging, '', dest, counted);
    Object.assign(budget.report, {
      ...counted.report,
      skipped: [...budget.report.skipped, ...counted.report.skipped],
    });
  } finally {
    await handle.close();
    await rm(staging, { recursive: true, force: true });
  }
}

/** A first read of a tar stream, writing nothing: entry count and declared sizes within the limits. */
async function precheckTar(sandbox: Sandbox, archive: string, compression: string, limits: ExtractLimits) {
  const { handle, stream } = await openStream(sandbox, archive, compression);
  try {
    const { checkTarEntries } = await import('./entry-count');
    await checkTarEntries(stream, limits);
  } finally {
    stream.destroy();
    await handle.close();
  }
}

export async function extractArchive(
  sandbox: Sandbox,
  archive: string,
  destination: string,
  opts: ExtractOptions,
): Promise<ExtractReport> {
  const format = formatOf(archive);
  const budget = new Budget(opts);
  await sandbox.mkdirp(destination);
  if (format.kind === 'zip') {
    const { extractZip } = await import('./zip');
    await extractZip(sandbox, archive, destination, budget);
  } else if (format.kind === '7z') await extractSeven(sandbox, archive, destination, budget, opts);
  else if (format.kind === 'rar') {
    const { extractRar } = await import('./rar');
    await extractRar(sandbox, archive, destination, budget);
  } else {
    if (format.kind === 'tar') await precheckTar(sandbox, archive, format.compression, opts);
    const { handle, stream } = await openStream(sandbox, archive, format.compression);
    try {
      if (format.kind === 'tar') {
        const { extractTar } = await import('./tar');
        await extractTar(sandbox, stream, destination, budget);
      } else {
        const base = archive.split('/').at(-1) ?? archive;
        const name = base.slice(0, base.length - format.suffix.length) || 'extracted';
        budget.entry();
        const target = entryPath(destination, name);
        if (target === null) throw new AppError('ErrArchiveInvalid', { reason: 'unsafe name' });
        await sandbox.writeStreamAtomic(target, budget.meter(stream));
        budget.report.files += 1;
      }
    } finally {
      await handle.close();
    }
  }
  return budget.report;
}
