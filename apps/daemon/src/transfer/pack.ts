/**
 * The export's tar writer (docs/daemon.md § Transfer). It walks the server's folder the way the sandbox does,
 * through descriptors (filesystem/fd-walk.ts): each folder opened from its parent's descriptor with
 * `O_NOFOLLOW | O_DIRECTORY`, each file with `O_NOFOLLOW`, so a folder or file swapped for a symlink while the
 * export runs (a user's SFTP session is not stopped by the transfer) fails the export instead of putting a file
 * from outside the folder — read as root — into the copy. A path-based writer (node-tar's pack) would follow it.
 *
 * Entries: folders, files (a hard-linked file is written in full each time), symlinks as links; sockets, FIFOs
 * and devices are left out. Headers are node-tar's (ustar, with a PAX header for long names). Files up to
 * SMALL_FILE are read in one go with synchronous calls (thread-pool round trips per file cost more than the read);
 * larger ones in READ_BYTES pieces.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, readdir, readlink, type FileHandle } from 'node:fs/promises';
import { Header, Pax, type HeaderData } from 'tar';
import { at, DIR_FLAGS } from '../filesystem/fd-walk';

const READ_BYTES = 4 * 1024 * 1024;
const SMALL_FILE = 256 * 1024;
const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW;
/** Deeper folders are not descended (each level holds a descriptor), as the owner hand-over's walk. */
const MAX_DEPTH = 256;
const END_OF_ARCHIVE = Buffer.alloc(1024);

export interface PackCounts {
  /** Sockets, FIFOs, devices: left out. */
  skipped: number;
}

function headerOf(data: HeaderData): Buffer[] {
  const header = new Header(data);
  const needsPax = header.encode();
  const block = header.block ?? Buffer.alloc(512);
  if (!needsPax) return [block];
  return [new Pax({ ...data, atime: undefined, ctime: undefined }).encode(), block];
}

function common(stats: Stats): Pick<HeaderData, 'mode' | 'uid' | 'gid' | 'mtime'> {
  return { mode: stats.mode & 0o7777, uid: stats.uid, gid: stats.gid, mtime: stats.mtime };
}

const padding = (size: number) => (size % 512 === 0 ? null : Buffer.alloc(512 - (size % 512)));

const changed = (path: string) => new Error(`${path} changed while it was exported`);

function smallFile(dir: FileHandle, name: string, path: string): Buffer[] {
  const fd = openSync(at(dir, name), FILE_FLAGS);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw changed(path);
    const body = Buffer.allocUnsafe(stats.size);
    let read = 0;
    while (read < stats.size) {
      const n = readSync(fd, body, read, stats.size - read, null);
      if (n === 0) throw changed(path);
      read += n;
    }
    const pad = padding(stats.size);
    return [
      ...headerOf({ ...common(stats), path, type: 'File', size: stats.size }),
      body,
      ...(pad ? [pad] : []),
    ];
  } finally {
    closeSync(fd);
  }
}

async function* largeFile(dir: FileHandle, name: string, path: string): AsyncGenerator<Buffer> {
  const handle = await open(at(dir, name), FILE_FLAGS);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw changed(path);
    yield* headerOf({ ...common(stats), path, type: 'File', size: stats.size });
    let left = stats.size;
    while (left > 0) {
      const buffer = Buffer.allocUnsafe(Math.min(left, READ_BYTES));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) throw changed(path);
      yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
      left -= bytesRead;
    }
    const pad = padding(stats.size);
    if (pad) yield pad;
  } finally {
    await handle.close();
  }
}

async function* entries(
  dir: FileHandle,
  prefix: string,
  depth: number,
  counts: PackCounts,
): AsyncGenerator<Buffer> {
  for (const name of (await readdir(at(dir))).sort()) {
    const path = `${prefix}${name}`;
    const stats = lstatSync(at(dir, name), { throwIfNoEntry: false });
    if (!stats) continue; // removed since the listing
    if (stats.isDirectory()) {
      const child = await open(at(dir, name), DIR_FLAGS);
      try {
        yield* headerOf({ ...common(await child.stat()), path: `${path}/`, type: 'Directory', size: 0 });
        if (depth < MAX_DEPTH) yield* entries(child, `${path}/`, depth + 1, counts);
      } finally {
        await child.close();
      }
    } else if (stats.isSymbolicLink()) {
      const linkpath = await readlink(at(dir, name));
      yield* headerOf({ ...common(stats), path, type: 'SymbolicLink', linkpath, size: 0 });
    } else if (stats.isFile()) {
      if (stats.size <= SMALL_FILE) yield* smallFile(dir, name, path);
      else yield* largeFile(dir, name, path);
    } else counts.skipped += 1;
  }
}

/** The tar stream of everything below `root` (not `root`'s own entry), ending with the end-of-archive blocks. */
export async function* packFolder(root: string, counts: PackCounts = { skipped: 0 }): AsyncGenerator<Buffer> {
  const dir = await open(root, DIR_FLAGS);
  try {
    yield* entries(dir, '', 0, counts);
  } finally {
    await dir.close();
  }
  yield END_OF_ARCHIVE;
}
