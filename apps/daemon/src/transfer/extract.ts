/**
 * Unpacks a transfer's tar stream into an empty staging folder (docs/daemon.md § Transfer). The bytes come from
 * another node through the panel, so every entry is checked as if hostile: absolute paths and `..` refuse the
 * whole stream; an entry may only go below folders this walk itself made (never through a link it made, which
 * is all that can be there: the staging folder starts empty and only the daemon can reach it); links pointing
 * outside the copy, device nodes and FIFOs are skipped; setuid, setgid and sticky bits are dropped. The owner
 * is handed over at commit (manager `adopt`), before the copy is renamed into place.
 *
 * Speed: file contents are written as they arrive, up to 1 MiB per write, with no fsync per file (the commit
 * flushes the whole filesystem once); folder modes and times are applied at the end, so a read-only folder in
 * the archive does not refuse the files after it.
 */
import { closeSync, constants, fchmodSync, futimesSync, openSync, writeSync } from 'node:fs';
import { copyFile, lutimes, mkdir, open, symlink, utimes, chmod, type FileHandle } from 'node:fs/promises';
import { once } from 'node:events';
import { posix } from 'node:path';
import { Parser, type ReadEntry } from 'tar';
import { AppError } from '@hearth/contract';

const FLUSH_BYTES = 1024 * 1024;
/** Input gathered into pieces of about this size before the parser sees it (Batcher). */
const BATCH_BYTES = 1024 * 1024;
const EMPTY = Buffer.alloc(0);
/** Files up to this size are written at once, synchronously (writeSmallFile). */
const SMALL_FILE = 256 * 1024;
const PERMISSION_BITS = 0o777;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

export interface ExtractReport {
  /** Bytes of file contents written. */
  bytes: number;
  files: number;
  /** Entries left out: links pointing outside the copy, device nodes, FIFOs. */
  skipped: number;
}

const unsafe = (path: string, why: string) =>
  new AppError('ErrTransferFailed', { reason: `unsafe archive entry ${JSON.stringify(path)}: ${why}` });

/** The entry's path relative to the copy ('' for the copy itself), or an error for an escaping one. */
export function cleanEntryPath(raw: string): string {
  if (raw.startsWith('/')) throw unsafe(raw, 'absolute path');
  const parts = raw.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) throw unsafe(raw, 'parent reference');
  return parts.join('/');
}

/** A symlink's target, if it stays inside the copy when resolved from the link's folder. */
function linkStaysInside(path: string, target: string): boolean {
  if (target === '' || target.startsWith('/')) return false;
  const resolved = posix.normalize(posix.join(posix.dirname(path), target));
  return resolved !== '..' && !resolved.startsWith('../');
}

class Unpacker {
  /** Folders this walk made or met as entries (relative paths); '' is the copy itself. */
  private readonly dirs = new Set<string>(['']);
  /** Files and links this walk made: nothing may go below them. */
  private readonly leaves = new Map<string, 'file' | 'link'>();
  private readonly dirModes: Array<{ path: string; mode: number; mtime: Date | undefined }> = [];
  readonly report: ExtractReport = { bytes: 0, files: 0, skipped: 0 };

  constructor(private readonly root: string) {}

  private abs(path: string): string {
    return path === '' ? this.root : `${this.root}/${path}`;
  }

  /** Makes the missing folders above `path`; refuses a path below one of this walk's files or links. */
  private async parents(path: string): Promise<void> {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i += 1) {
      const dir = parts.slice(0, i).join('/');
      if (this.dirs.has(dir)) continue;
      if (this.leaves.has(dir)) throw unsafe(path, `below the ${this.leaves.get(dir)} ${dir}`);
      await mkdir(this.abs(dir), { mode: 0o700 });
      this.dirs.add(dir);
    }
  }

  private claim(path: string, kind: 'file' | 'link'): void {
    if (this.dirs.has(path) || this.leaves.has(path)) throw unsafe(path, 'appears twice');
    this.leaves.set(path, kind);
  }

  async entry(entry: ReadEntry): Promise<void> {
    const path = cleanEntryPath(entry.path);
    const mode = (entry.mode ?? 0o600) & PERMISSION_BITS;
    const { type } = entry;
    if (type === 'Directory' || type === 'GNUDumpDir') {
      entry.resume();
      return this.directory(path, mode, entry.mtime);
    }
    if (type === 'File' || type === 'OldFile' || type === 'ContiguousFile')
      return this.file(path, mode, entry);
    entry.resume();
    if (type === 'SymbolicLink') return this.symlink(path, entry.linkpath ?? '', entry.mtime);
    if (type === 'Link') return this.hardlink(path, cleanEntryPath(entry.linkpath ?? ''), mode);
    // Device nodes, FIFOs and the like have no place in a server's folder.
    this.report.skipped += 1;
  }

  private async directory(path: string, mode: number, mtime: Date | undefined): Promise<void> {
    if (path !== '') {
      if (this.leaves.has(path)) throw unsafe(path, 'a folder where a file was');
      await this.parents(path);
      if (!this.dirs.has(path)) await mkdir(this.abs(path), { mode: 0o700 });
      this.dirs.add(path);
    }
    // The copy's own folder mode is the manager's (0700) at commit; its children keep theirs.
    if (path !== '') this.dirModes.push({ path, mode, mtime });
  }

  private async file(path: string, mode: number, entry: ReadEntry): Promise<void> {
    if (path === '') throw unsafe(entry.path, 'a file as the root');
    await this.parents(path);
    this.claim(path, 'file');
    const times = entry.mtime ? { atime: entry.atime ?? entry.mtime, mtime: entry.mtime } : null;
    if (entry.size <= SMALL_FILE) {
      const body = await collect(entry);
      writeSmallFile(this.abs(path), body, mode, times);
      this.report.bytes += body.length;
    } else {
      const handle = await open(this.abs(path), CREATE_FLAGS, 0o600);
      try {
        await writeAll(handle, entry, (n) => (this.report.bytes += n));
        await handle.chmod(mode);
        if (times) await handle.utimes(times.atime, times.mtime);
      } finally {
        await handle.close();
      }
    }
    this.report.files += 1;
  }

  private async symlink(path: string, target: string, mtime: Date | undefined): Promise<void> {
    if (path === '' || !linkStaysInside(path, target)) {
      this.report.skipped += 1;
      return;
    }
    await this.parents(path);
    this.claim(path, 'link');
    await symlink(target, this.abs(path));
    if (mtime) await lutimes(this.abs(path), mtime, mtime);
  }

  /**
   * A hard link becomes a copy of the file it names (one this walk wrote): the owner's hand-over leaves files
   * with several links alone (filesystem/chown-tree.ts), so a linked pair would stay the daemon's.
   */
  private async hardlink(path: string, target: string, mode: number): Promise<void> {
    if (this.leaves.get(target) !== 'file') throw unsafe(path, `links to ${target}, not a file before it`);
    await this.parents(path);
    this.claim(path, 'file');
    await copyFile(this.abs(target), this.abs(path), constants.COPYFILE_EXCL);
    await chmod(this.abs(path), mode);
    this.report.files += 1;
  }

  /** Deepest first, so a folder made read-only does not refuse the modes below it. */
  async finish(): Promise<void> {
    const byDepth = [...this.dirModes].sort((a, b) => b.path.split('/').length - a.path.split('/').length);
    for (const { path, mode, mtime } of byDepth) {
      await chmod(this.abs(path), mode | 0o700);
      if (mtime) await utimes(this.abs(path), mtime, mtime);
    }
  }
}

/** An entry's whole contents (a small file's: its data is already in the parser's hands). */
function collect(entry: ReadEntry): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    entry.on('data', (chunk: Buffer) => chunks.push(chunk));
    entry.on('end', () => resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks)));
    entry.on('error', reject);
  });
}

/**
 * A small file in one go with synchronous calls: five thread-pool round trips per file cost more than the
 * write itself (a server holds thousands of small files), and a write of at most SMALL_FILE bytes into the page
 * cache holds the event loop for microseconds. Large files stay asynchronous (dirty-page throttling could stall).
 */
function writeSmallFile(
  path: string,
  body: Buffer,
  mode: number,
  times: { atime: Date; mtime: Date } | null,
) {
  const fd = openSync(path, CREATE_FLAGS, 0o600);
  try {
    let written = 0;
    while (written < body.length) written += writeSync(fd, body, written, body.length - written);
    fchmodSync(fd, mode);
    if (times) futimesSync(fd, times.atime, times.mtime);
  } finally {
    closeSync(fd);
  }
}

/** Writes an entry's contents in batches of up to FLUSH_BYTES. */
async function writeAll(handle: FileHandle, entry: ReadEntry, count: (n: number) => void): Promise<void> {
  let batch: Buffer[] = [];
  let size = 0;
  const flush = async () => {
    if (size === 0) return;
    const buffers = batch;
    batch = [];
    const length = size;
    size = 0;
    let written = 0;
    while (written < length)
      written += (await handle.writev(written === 0 ? buffers : rest(buffers, written))).bytesWritten;
    count(length);
  };
  for await (const chunk of entry as AsyncIterable<Buffer>) {
    batch.push(chunk);
    size += chunk.length;
    if (size >= FLUSH_BYTES) await flush();
  }
  await flush();
}

/** What is left of `buffers` after the first `offset` bytes (a short writev). */
function rest(buffers: Buffer[], offset: number): Buffer[] {
  const all = Buffer.concat(buffers);
  return [all.subarray(offset)];
}

/**
 * Gathers the socket's chunks (~64 KiB, cut anywhere) into ~1 MiB pieces cut at a 512-byte block boundary: the
 * tar parser then never has to join a block split across two chunks (it copied nearly every chunk to do so), and
 * the allocations behind it — most of the import's garbage collection — are 16 times fewer.
 */
class Batcher {
  private chunks: Buffer[] = [];
  private size = 0;

  /** What may go to the parser now (empty until a piece is full). */
  add(chunk: Buffer): Buffer {
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size < BATCH_BYTES) return EMPTY;
    const all = Buffer.concat(this.chunks, this.size);
    const cut = all.length - (all.length % 512);
    this.chunks = cut < all.length ? [all.subarray(cut)] : [];
    this.size = all.length - cut;
    return all.subarray(0, cut);
  }

  rest(): Buffer {
    const all = Buffer.concat(this.chunks, this.size);
    this.chunks = [];
    this.size = 0;
    return all;
  }
}

/**
 * Reads `input` to its end into `root` (an existing empty folder), calling `seen` with every chunk as received
 * (the checksum of the exact bytes). Rejects on an unsafe entry, a broken archive, a write error or a cut input.
 * After a failure the rest of the input is still read (and dropped), so the sender gets the refusal as an
 * answer rather than a connection reset; a cut input ends that at once.
 */
export async function extractInto(
  root: string,
  input: AsyncIterable<Buffer>,
  seen: (chunk: Buffer) => void,
): Promise<ExtractReport> {
  const unpacker = new Unpacker(root);
  const parser = new Parser({ strict: true });
  let failure: unknown = null;
  let entries = 0;
  /** Whether any byte was not zero: an archive of only end blocks is an empty server folder, not a bad one. */
  let anyData = false;
  let queue: Promise<void> = Promise.resolve();
  parser.on('entry', (entry: ReadEntry) => {
    entries += 1;
    queue = queue.then(async () => {
      if (failure) return void entry.resume();
      await unpacker.entry(entry).catch((err: unknown) => {
        failure ??= err;
        entry.resume();
      });
    });
  });
  parser.on('error', (err: unknown) => (failure ??= err));
  // Only a decompression bomb aborts a parser; its entry then never ends, so nothing waits for it.
  const aborted = new Promise<void>((resolve) =>
    parser.on('abort', (err: unknown) => resolve(void (failure ??= err))),
  );
  const ended = new Promise<void>((resolve) => parser.on('end', () => resolve()));
  const feed = async (bytes: Buffer) => {
    if (!failure && bytes.length > 0 && !parser.write(bytes))
      await Promise.race([once(parser, 'drain'), aborted]);
  };
  const batch = new Batcher();
  try {
    for await (const chunk of input) {
      seen(chunk);
      anyData ||= chunk.some((byte) => byte !== 0);
      if (!failure) await feed(batch.add(chunk));
    }
    await feed(batch.rest());
  } finally {
    parser.end();
    await settle(() => queue, aborted);
  }
  await Promise.race([ended, aborted]);
  // node-tar's strict parser calls an archive without entries unrecognised; the export of an empty folder is one.
  if (entries === 0 && !anyData && (failure as { code?: string } | null)?.code === 'TAR_BAD_ARCHIVE')
    failure = null;
  if (failure) throw failure instanceof Error ? failure : new Error('the archive could not be read');
  await unpacker.finish();
  return unpacker.report;
}

/** Waits until the entry queue stops growing (entries the parser emits while the last ones finish). */
async function settle(queue: () => Promise<void>, aborted: Promise<void>): Promise<void> {
  for (;;) {
    const current = queue();
    const stop = await Promise.race([current.then(() => false), aborted.then(() => true)]);
    if (stop || current === queue()) return;
  }
}
