/**
 * Copying inside the sandbox (docs/files.md § Rename, move, copy, permissions): through descriptors like the
 * rest of the sandbox (fd-walk.ts). The source is opened from its parent without following links; a symlink,
 * device, socket or FIFO inside a copied folder is skipped and reported, never followed or recreated. The copy
 * is written under a temp name beside the target and renamed into place only when complete, so a failed or
 * cut-short copy leaves no half target. Before anything is written the source's size is measured (bounded
 * by the extract limits) and compared with the free space of the target's file system.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, statfs, type FileHandle } from 'node:fs/promises';
import { AppError, type FileCopyReport } from '@hearth/contract';
import { at, DIR_FLAGS, ownNew, type FileOwner } from './fd-walk';
import { lstatEach } from './lstat-entries';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
/** Deeper trees than this are refused (each level holds one descriptor), as remove-tree.ts does. */
const MAX_DEPTH = 256;
const CHUNK = 1024 * 1024;

export interface CopyLimits {
  /** Most entries in a copied folder (files.maxExtractEntries). */
  maxEntries: number;
  /** Most bytes one copy writes (files.maxExtractBytes). */
  maxBytes: number;
}

export type CopyReport = Omit<FileCopyReport, 'path'>;

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code ?? '';

function tooLarge(): AppError {
  return new AppError('ErrCopyTooLarge');
}

/** Bytes and entries below (and including) `name` in `parent`; symlinks and specials count as nothing. */
async function measure(
  parent: FileHandle,
  name: string,
  limits: CopyLimits,
  total = { bytes: 0, entries: 0 },
  depth = 0,
): Promise<{ bytes: number; entries: number }> {
  if (depth > MAX_DEPTH) throw new AppError('ErrFieldInvalid', { field: 'from', reason: 'too deep' });
  const folder = await open(at(parent, name), DIR_FLAGS);
  try {
    const entries = await lstatEach(folder, await readdir(at(folder)), (n, s) => ({ n, s }));
    for (const { n, s } of entries) {
      total.entries += 1;
      if (total.entries > limits.maxEntries) throw tooLarge();
      if (s.isFile()) total.bytes += s.size;
      else if (s.isDirectory()) await measure(folder, n, limits, total, depth + 1);
      if (total.bytes > limits.maxBytes) throw tooLarge();
    }
  } finally {
    await folder.close();
  }
  return total;
}

/** Refuses the copy when its bytes do not fit on the target's file system (ENOSPC is caught as well). */
async function checkSpace(target: FileHandle, bytes: number): Promise<void> {
  const fs = await statfs(at(target));
  if (bytes > fs.bavail * fs.bsize) throw new AppError('ErrFileNoSpace');
}

class TreeCopy {
  readonly report: CopyReport = { files: 0, folders: 0, bytes: 0, skipped: [] };
  constructor(
    private readonly limits: CopyLimits,
    private readonly owner: FileOwner | null,
  ) {}

  /** Copies the regular file `name` of `from` to `toName` in `to` (which must not exist). */
  async file(from: FileHandle, name: string, to: FileHandle, toName: string): Promise<void> {
    const source = await open(at(from, name), O_RDONLY | O_NOFOLLOW);
    try {
      const info = await source.stat();
      if (!info.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
      const target = await ownNew(
        await open(at(to, toName), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, info.mode & 0o777),
        this.owner,
      );
      try {
        const buffer = Buffer.allocUnsafe(CHUNK);
        for (;;) {
          const { bytesRead } = await source.read(buffer, 0, CHUNK, null);
          if (bytesRead === 0) break;
          this.report.bytes += bytesRead;
          if (this.report.bytes > this.limits.maxBytes) throw tooLarge();
          await target.write(buffer, 0, bytesRead);
        }
        await target.chmod(info.mode & 0o777); // the umask may have narrowed the open's mode
      } finally {
        await target.close();
      }
      this.report.files += 1;
    } finally {
      await source.close();
    }
  }

  /** Copies the folder `name` of `from` (and everything in it) to the new folder `toName` in `to`. */
  async folder(from: FileHandle, name: string, to: FileHandle, toName: string, rel: string, depth = 0) {
    if (depth > MAX_DEPTH) throw new AppError('ErrFieldInvalid', { field: 'from', reason: 'too deep' });
    const source = await open(at(from, name), DIR_FLAGS);
    try {
      const mode = (await source.stat()).mode & 0o777;
      await mkdir(at(to, toName), 0o700);
      const target = await ownNew(await open(at(to, toName), DIR_FLAGS), this.owner);
      try {
        this.report.folders += 1;
        const entries = await lstatEach(source, await readdir(at(source)), (n, s) => ({ n, s }));
        for (const { n, s } of entries) {
          const path = rel ? `${rel}/${n}` : n;
          if (this.report.files + this.report.folders > this.limits.maxEntries) throw tooLarge();
          if (s.isDirectory()) await this.folder(source, n, target, n, path, depth + 1);
          else if (s.isFile()) await this.file(source, n, target, n);
          else
            this.report.skipped.push({ name: path, reason: s.isSymbolicLink() ? 'symlink' : 'not a file' });
        }
        await target.chmod(mode | 0o700); // the daemon keeps its way in; the rest as the source had it
      } finally {
        await target.close();
      }
    } finally {
      await source.close();
    }
  }
}

/** Copies `name` in `from` to the new entry `temp` in `to` (the caller renames it into place or removes it). */
export async function copyEntry(
  from: FileHandle,
  name: string,
  to: FileHandle,
  temp: string,
  isFolder: boolean,
  limits: CopyLimits,
  owner: FileOwner | null,
): Promise<CopyReport> {
  const size = isFolder ? (await measure(from, name, limits)).bytes : (await lstat(at(from, name))).size;
  if (size > limits.maxBytes) throw tooLarge();
  await checkSpace(to, size);
  const copy = new TreeCopy(limits, owner);
  try {
    if (isFolder) await copy.folder(from, name, to, temp, '');
    else await copy.file(from, name, to, temp);
  } catch (err) {
    if (codeOf(err) === 'ENOSPC' || codeOf(err) === 'EDQUOT')
      throw new AppError('ErrFileNoSpace', {}, { cause: err });
    throw err;
  }
  return copy.report;
}
