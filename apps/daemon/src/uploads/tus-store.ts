/**
 * The node's unfinished resumable (tus) uploads (docs/files.md § Resumable uploads, ADR 0014). Each lives in
 * `<serversDir>/.uploads/<server>/` as `<upload>.json` (length, final path, owner server) and `<upload>.part`
 * (the bytes received so far: its size is the offset). That folder is beside the server folders, on the same
 * filesystem (so the finished file is renamed into place, never copied), outside every server's root (so
 * neither the file list nor SFTP shows it) and counted in the server's disk usage. The final path is checked
 * through the server's sandbox when the upload is created and again when the file is moved into place.
 */
import { randomBytes } from 'node:crypto';
import {
  chown,
  lstat,
  mkdir,
  open,
  readFile,
  readdir,
  rename,
  rm,
  stat,
  statfs,
  writeFile,
} from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { AppError, isAppError } from '@hearth/contract';
import { at } from '../filesystem/fd-walk';
import { illegal, segmentsOf, splitLast } from '../filesystem/paths';
import type { Sandbox } from '../filesystem/sandbox';

/** The folder of unfinished uploads inside the servers folder (an id holds no dot, so no server is named so). */
export const UPLOADS_FOLDER = '.uploads';

const WRITE_BATCH_BYTES = 1024 * 1024;

export interface UploadLimits {
  /** One upload's length may not exceed this (the multipart upload's limit, `files.maxUploadBytes`). */
  maxBytes: number;
  /** The declared lengths of one server's unfinished uploads may not add up to more than this. */
  quotaBytes: number;
  /** An upload untouched this long is removed. */
  expiryMs: number;
}

interface UploadRecord {
  length: number;
  path: string;
  created: number;
}

export interface UploadState {
  offset: number;
  length: number;
}

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';
const notFound = () => new AppError('ErrUploadNotFound');

/** A chunk being written: how to cut its request, and when it has let go of the file. */
interface Writer {
  cancel: () => void;
  done: Promise<void>;
}

export class TusUploads {
  /** Uploads a chunk is being written to, by key `server/upload`. */
  private readonly busy = new Map<string, Writer>();

  constructor(
    /** `<serversDir>/.uploads` */
    readonly root: string,
    private readonly limits: UploadLimits,
  ) {}

  /** The folder of one server's unfinished uploads (counted in its disk usage; removed with the server). */
  folderOf(server: string): string {
    return join(this.root, server);
  }

  private fileOf(server: string, upload: string, ext: 'json' | 'part'): string {
    return join(this.folderOf(server), `${upload}.${ext}`);
  }

  private async record(server: string, upload: string): Promise<UploadRecord> {
    const text = await readFile(this.fileOf(server, upload, 'json'), 'utf8').catch((err: unknown) => {
      throw isMissing(err) ? notFound() : err;
    });
    return JSON.parse(text) as UploadRecord;
  }

  private async records(server: string): Promise<Array<[string, UploadRecord]>> {
    const names = await readdir(this.folderOf(server)).catch((err: unknown) => {
      if (isMissing(err)) return [];
      throw err;
    });
    const ids = names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length));
    const found = await Promise.all(ids.map(async (id) => this.record(server, id).catch(() => null)));
    return ids.flatMap((id, i) => (found[i] ? [[id, found[i]] as [string, UploadRecord]] : []));
  }

  /** Bytes still to come for a server's unfinished uploads, and their declared lengths. */
  private async pending(server: string): Promise<{ declared: number; remaining: number }> {
    let declared = 0;
    let remaining = 0;
    for (const [id, record] of await this.records(server)) {
      const offset = await this.offset(server, id).catch(() => ({ offset: 0 }));
      declared += record.length;
      remaining += record.length - offset.offset;
    }
    return { declared, remaining };
  }

  /**
   * A new upload of `length` bytes that becomes `path` in the server's folder. Refused: a path the sandbox
   * refuses (`..`, absolute, through a symlink, the folder itself, an existing folder), a length over the limit,
   * over the server's room for pending uploads or over the disk's free space.
   */
  async create(server: string, sandbox: Sandbox, length: number, path: string): Promise<string> {
    await checkTarget(sandbox, path);
    if (length > this.limits.maxBytes) throw new AppError('ErrFileTooLarge', { limit: this.limits.maxBytes });
    await mkdir(this.folderOf(server), { recursive: true, mode: 0o700 });
    const { declared, remaining } = await this.pending(server);
    if (declared + length > this.limits.quotaBytes) throw new AppError('ErrUploadNoSpace');
    const disk = await statfs(this.folderOf(server));
    if (remaining + length > disk.bavail * disk.bsize) throw new AppError('ErrUploadNoSpace');
    const upload = randomBytes(16).toString('hex');
    await writeFile(this.fileOf(server, upload, 'part'), new Uint8Array(0), { flag: 'wx', mode: 0o600 });
    const record: UploadRecord = { length, path, created: Date.now() };
    await writeFile(this.fileOf(server, upload, 'json'), JSON.stringify(record), { mode: 0o600 });
    return upload;
  }

  /** How far an upload has come (its partial file's size). */
  async offset(server: string, upload: string): Promise<UploadState> {
    const record = await this.record(server, upload);
    const size = await stat(this.fileOf(server, upload, 'part')).then(
      (s) => s.size,
      (err: unknown) => {
        throw isMissing(err) ? notFound() : err;
      },
    );
    return { offset: size, length: record.length };
  }

  /**
   * Appends `body` at `offset` (which must be the upload's own, else ErrUploadOffset with the real one) and,
   * when the last byte arrived, moves the file into place. A dropped connection keeps what was written: the
   * client asks the offset and goes on from there. Bytes beyond the declared length are refused (413).
   * A chunk still being written is a connection its client has given up on (tus clients send one at a time):
   * it is cut (`cancel`) and what it wrote kept, then this one is judged against the offset it left.
   */
  async append(
    server: string,
    sandbox: Sandbox,
    upload: string,
    offset: number,
    body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    cancel: () => void = () => undefined,
  ): Promise<number> {
    const key = `${server}/${upload}`;
    await this.supersede(key);
    const state = await this.offset(server, upload);
    if (this.busy.has(key) || state.offset !== offset)
      throw new AppError('ErrUploadOffset', { offset: state.offset });
    let release: () => void = () => undefined;
    this.busy.set(key, { cancel, done: new Promise<void>((resolve) => (release = resolve)) });
    try {
      const end = await this.write(this.fileOf(server, upload, 'part'), state, body);
      if (end === state.length) await this.finish(server, sandbox, upload);
      return end;
    } finally {
      this.busy.delete(key);
      release();
    }
  }

  /** Cuts the chunk being written to `key`, if any, and waits until it has let go of the file. */
  private async supersede(key: string): Promise<void> {
    const writer = this.busy.get(key);
    if (!writer) return;
    writer.cancel();
    await writer.done;
  }

  private async write(
    part: string,
    state: UploadState,
    body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  ): Promise<number> {
    const handle = await open(part, 'r+');
    let position = state.offset;
    let pending: Uint8Array[] = [];
    let size = 0;
    const flush = async () => {
      if (size === 0) return;
      await handle.writev(pending, position);
      position += size;
      pending = [];
      size = 0;
    };
    try {
      for await (const chunk of body) {
        const room = state.length - position - size;
        if (chunk.length > room) {
          pending.push(chunk.subarray(0, room));
          size += room;
          await flush();
          throw new AppError('ErrFileTooLarge', { limit: state.length });
        }
        pending.push(chunk);
        size += chunk.length;
        if (size >= WRITE_BATCH_BYTES) await flush();
      }
      await flush();
    } catch (err) {
      // A dropped connection: the bytes that did arrive are kept, and the client resumes after them.
      if (!isAppError(err)) await flush();
      throw err;
    } finally {
      await handle.close();
    }
    return position;
  }

  /** The complete file renamed into its place through the sandbox (copied when that is another filesystem). */
  private async finish(server: string, sandbox: Sandbox, upload: string): Promise<void> {
    const { path } = await this.record(server, upload);
    const part = this.fileOf(server, upload, 'part');
    const owner = sandbox.owner();
    if (owner) await chown(part, owner.uid, owner.gid);
    const moved = await sandbox.withParent(
      path,
      async (dir, name) => {
        await assertReplaceable(dir, name, path);
        return rename(part, at(dir, name)).then(
          () => true,
          (err: unknown) => {
            if ((err as NodeJS.ErrnoException).code === 'EXDEV') return false;
            throw err;
          },
        );
      },
      true,
    );
    if (!moved) await sandbox.writeStreamAtomic(path, createReadStream(part));
    await this.remove(server, upload);
  }

  /** tus termination: the upload and its partial file are gone (an unknown upload: ErrUploadNotFound). */
  async terminate(server: string, upload: string): Promise<void> {
    await this.record(server, upload);
    await this.supersede(`${server}/${upload}`);
    await this.remove(server, upload);
  }

  private async remove(server: string, upload: string): Promise<void> {
    await rm(this.fileOf(server, upload, 'json'), { force: true });
    await rm(this.fileOf(server, upload, 'part'), { force: true });
  }

  /** Every unfinished upload of a server (it is being deleted). */
  async removeServer(server: string): Promise<void> {
    await rm(this.folderOf(server), { recursive: true, force: true });
  }

  /**
   * Removes uploads untouched for `expiryMs` (the partial file's last write, or the creation) and the
   * folders of servers that no longer exist. Returns how many uploads were removed.
   */
  async sweep(exists: (server: string) => boolean, now = Date.now()): Promise<number> {
    const servers = await readdir(this.root).catch((err: unknown) => {
      if (isMissing(err)) return [];
      throw err;
    });
    let removed = 0;
    for (const server of servers) {
      if (!exists(server)) {
        await this.removeServer(server);
        continue;
      }
      const names = await readdir(this.folderOf(server)).catch(() => []);
      const ids = new Set(names.map((n) => n.replace(/\.(json|part)$/, '')));
      for (const id of ids) {
        if (this.busy.has(`${server}/${id}`)) continue;
        const touched = await lastTouched(this.folderOf(server), id);
        if (now - touched < this.limits.expiryMs) continue;
        await this.remove(server, id);
        removed++;
      }
    }
    return removed;
  }
}

async function lastTouched(folder: string, id: string): Promise<number> {
  const times = await Promise.all(
    ['json', 'part'].map((ext) =>
      lstat(join(folder, `${id}.${ext}`)).then(
        (s) => s.mtimeMs,
        () => 0,
      ),
    ),
  );
  return Math.max(...times);
}

/** The target may be a new name or a file to replace, never a folder or a symlink. */
async function assertReplaceable(
  dir: Parameters<Parameters<Sandbox['withParent']>[1]>[0],
  name: string,
  path: string,
): Promise<void> {
  if (name === '') throw illegal(path, 'the server folder itself');
  const existing = await lstat(at(dir, name)).catch(() => null);
  if (existing?.isSymbolicLink()) throw illegal(path, 'symlink');
  if (existing?.isDirectory()) throw new AppError('ErrNotAFile');
}

/**
 * The checks made when an upload is created: the path is legal and, as far as its folders exist, leads
 * through no symlink and out of no folder. A folder still missing is made when the file is moved into place.
 */
async function checkTarget(sandbox: Sandbox, path: string): Promise<void> {
  const { name } = splitLast(segmentsOf(path));
  if (name === '') throw illegal(path, 'the server folder itself');
  await sandbox
    .withParent(path, (dir, last) => assertReplaceable(dir, last, path))
    .catch((err: unknown) => {
      if (isAppError(err) && (err.code === 'ErrFileNotFound' || err.code === 'ErrNotADirectory')) return;
      throw err;
    });
}
