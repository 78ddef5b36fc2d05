/**
 * One SFTP session: every operation goes through the server's sandbox. Reads need viewServerFiles, changes
 * putServerFiles (checked on each request against the current grant, which the re-check may narrow). Files
 * opened with TRUNC are written atomically (temp + rename on close); other writes go in place.
 */
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import ssh2, { type Attributes, type SFTPWrapper } from 'ssh2';
import { AppError, isAppError, type ServerPermission } from '@hearth/contract';
import { chmodHandle, type AtomicFile, type Entry, type Sandbox } from '../filesystem/sandbox';
import { attrsOf, clientPath, longname, sandboxPath } from './attrs';
import { coalescer, type Coalescer } from './coalesce';
import { FileIo } from './file-io';

const { STATUS_CODE, OPEN_MODE } = ssh2.utils.sftp;
const NAMES_PER_READDIR = 128;
const MAX_READ = 256 * 1024; // OpenSSH's largest packet

type Open =
  | {
      kind: 'file';
      handle: FileHandle;
      io: FileIo;
      atomic: AtomicFile | null;
      written: string | null;
      /** The client's path (FSETSTAT's activity entry names it). */
      path: string;
    }
  | { kind: 'dir'; path: string; entries: Entry[] | null; sent: number };

export interface SessionAccess {
  sandbox(): Sandbox;
  permissions(): ServerPermission[];
  /** Runs several replies so that they reach the socket in one write. */
  together?(replies: () => void): void;
  /** A change for the panel's activity log (docs/activity.md § Node events): paths only, never contents. */
  record?(change: SftpChange): void;
}

export type SftpChange =
  | { action: 'sftp.file.write' | 'sftp.file.delete' | 'sftp.file.mkdir'; path: string }
  | { action: 'sftp.file.rename'; from: string; to: string }
  | { action: 'sftp.file.setstat'; path: string; mode?: string; times?: true; size?: number };

function statusOf(err: unknown): number {
  if (!isAppError(err)) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return STATUS_CODE.NO_SUCH_FILE;
    if (code === 'EACCES' || code === 'EPERM' || code === 'ELOOP') return STATUS_CODE.PERMISSION_DENIED;
    return STATUS_CODE.FAILURE;
  }
  if (err.code === 'ErrFileNotFound' || err.code === 'ErrServerNotFound') return STATUS_CODE.NO_SUCH_FILE;
  if (err.code === 'ErrIllegalFileAccess' || err.code === 'ErrMissingScope')
    return STATUS_CODE.PERMISSION_DENIED;
  return STATUS_CODE.FAILURE;
}

function openFlags(flags: number): number {
  const { O_RDONLY, O_WRONLY, O_RDWR, O_APPEND, O_CREAT, O_TRUNC, O_EXCL } = constants;
  const read = flags & OPEN_MODE.READ;
  const write = flags & OPEN_MODE.WRITE;
  let result = read && write ? O_RDWR : write ? O_WRONLY : O_RDONLY;
  if (flags & OPEN_MODE.APPEND) result |= O_APPEND;
  if (flags & OPEN_MODE.CREAT) result |= O_CREAT;
  if (flags & OPEN_MODE.TRUNC) result |= O_TRUNC;
  if (flags & OPEN_MODE.EXCL) result |= O_EXCL;
  return result;
}

export class SftpSession {
  private readonly open = new Map<number, Open>();
  private nextHandle = 1;
  /** Runs a batch of replies: fuller SSH packets (coalesce.ts), one socket write (server.ts). */
  private readonly together: Coalescer;

  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly access: SessionAccess,
  ) {
    const coalesce = coalescer(sftp);
    this.together = access.together ? (replies) => access.together?.(() => coalesce(replies)) : coalesce;
    const on = (
      event: string,
      need: ServerPermission | null,
      work: (id: number, ...a: never[]) => Promise<void>,
    ) =>
      sftp.on(event as 'OPEN', (id: number, ...args: unknown[]) => {
        void this.run(id, need, () => work(id, ...(args as never[])));
      });
    sftp.on('OPEN', (id, path, flags, attrs) => {
      const writes = (flags & (OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.TRUNC | OPEN_MODE.APPEND)) !== 0;
      void this.run(id, writes ? 'putServerFiles' : 'viewServerFiles', () =>
        this.doOpen(id, path, flags, attrs, writes),
      );
    });
    // READ and WRITE are the bulk of a transfer: plain callbacks, no promise per request.
    sftp.on('READ', (id, h, offset, length) => {
      const io = this.io(id, h, 'viewServerFiles');
      io?.read(offset, Math.min(length, MAX_READ), (err, data) => {
        if (err) this.fail(id, err);
        else if (data) this.sftp.data(id, data);
        else this.sftp.status(id, STATUS_CODE.EOF);
      });
    });
    sftp.on('WRITE', (id, h, offset, data) => {
      const io = this.io(id, h, 'putServerFiles');
      io?.write(offset, data, (err) => (err ? this.fail(id, err) : this.sftp.status(id, STATUS_CODE.OK)));
    });
    on('FSTAT', 'viewServerFiles', async (id, h: Buffer) => {
      this.sftp.attrs(id, attrsOf(await this.file(h).handle.stat()));
    });
    on('FSETSTAT', 'putServerFiles', async (id, h: Buffer, attrs: Attributes) => {
      const file = this.file(h);
      await this.setstat(id, file.handle, attrs);
      this.recordSetstat(file.path, attrs);
    });
    on('CLOSE', null, (id, h: Buffer) => this.doClose(id, h));
    on('OPENDIR', 'viewServerFiles', (id, path: string) => this.doOpendir(id, path));
    on('READDIR', 'viewServerFiles', (id, h: Buffer) => this.doReaddir(id, h));
    on('LSTAT', 'viewServerFiles', (id, path: string) => this.doStat(id, path));
    on('STAT', 'viewServerFiles', (id, path: string) => this.doStat(id, path));
    on('REALPATH', null, async (id, path: string) => {
      const name = clientPath(path);
      this.sftp.name(id, [{ filename: name, longname: name, attrs: {} as Attributes }]);
    });
    on('MKDIR', 'putServerFiles', async (id, path: string) => {
      await this.ok(id, this.sandbox().mkdir(sandboxPath(path)));
      this.access.record?.({ action: 'sftp.file.mkdir', path: clientPath(path) });
    });
    on('RMDIR', 'putServerFiles', async (id, path: string) => {
      await this.ok(id, this.sandbox().rmdir(sandboxPath(path)));
      this.access.record?.({ action: 'sftp.file.delete', path: clientPath(path) });
    });
    on('REMOVE', 'putServerFiles', async (id, path: string) => {
      await this.ok(id, this.sandbox().unlink(sandboxPath(path)));
      this.access.record?.({ action: 'sftp.file.delete', path: clientPath(path) });
    });
    on('RENAME', 'putServerFiles', async (id, from: string, to: string) => {
      await this.ok(id, this.sandbox().rename(sandboxPath(from), sandboxPath(to), { overwrite: false }));
      this.access.record?.({ action: 'sftp.file.rename', from: clientPath(from), to: clientPath(to) });
    });
    on('SETSTAT', 'putServerFiles', async (id, path: string, attrs: Attributes) => {
      const handle = await this.sandbox().open(sandboxPath(path), constants.O_RDONLY, 0, true);
      try {
        await this.setstat(id, handle, attrs);
      } finally {
        await handle.close();
      }
      this.recordSetstat(clientPath(path), attrs);
    });
    for (const unsupported of ['READLINK', 'SYMLINK'] as const)
      sftp.on(unsupported, (id: number) => sftp.status(id, STATUS_CODE.OP_UNSUPPORTED));
    // OpenSSH's client waits for the server to end the channel after it ends its side.
    sftp.on('end', () => sftp.end());
    sftp.on('close', () => void this.closeAll());
  }

  private sandbox(): Sandbox {
    return this.access.sandbox();
  }

  private async run(id: number, need: ServerPermission | null, work: () => Promise<void>): Promise<void> {
    try {
      this.allow(need);
      await work();
    } catch (err) {
      this.fail(id, err);
    }
  }

  private allow(need: ServerPermission | null): void {
    if (need !== null && !this.access.permissions().includes(need))
      throw new AppError('ErrMissingScope', { permission: need });
  }

  private fail(id: number, err: unknown): void {
    this.sftp.status(id, statusOf(err), isAppError(err) ? err.message : 'Failure');
  }

  /** The open file's I/O for a READ or WRITE, after the same permission check as every request. */
  private io(id: number, h: Buffer, need: ServerPermission): FileIo | null {
    try {
      this.allow(need);
      return this.file(h).io;
    } catch (err) {
      this.fail(id, err);
      return null;
    }
  }

  private async ok(id: number, work: Promise<unknown>): Promise<void> {
    await work;
    this.sftp.status(id, STATUS_CODE.OK);
  }

  private fileIo(handle: FileHandle): FileIo {
    return new FileIo(handle.fd, this.together);
  }

  private add(entry: Open): Buffer {
    const n = this.nextHandle++;
    this.open.set(n, entry);
    const buf = Buffer.alloc(4);
    buf.writeUInt32BE(n);
    return buf;
  }

  private entry(h: Buffer): Open {
    const entry = h.length === 4 ? this.open.get(h.readUInt32BE(0)) : undefined;
    if (!entry) throw new AppError('ErrFileNotFound', { path: 'handle' });
    return entry;
  }

  private file(h: Buffer) {
    const entry = this.entry(h);
    if (entry.kind !== 'file') throw new AppError('ErrNotAFile', { path: 'handle' });
    return entry;
  }

  private async doOpen(
    id: number,
    path: string,
    flags: number,
    attrs: Attributes,
    writes: boolean,
  ): Promise<void> {
    const target = sandboxPath(path);
    const client = clientPath(path);
    const written = writes ? client : null;
    const replace = (flags & OPEN_MODE.TRUNC) !== 0 && (flags & OPEN_MODE.EXCL) === 0;
    if (replace && !(flags & OPEN_MODE.READ)) {
      const atomic = await this.sandbox().createAtomic(target);
      this.sftp.handle(
        id,
        this.add({
          kind: 'file',
          handle: atomic.handle,
          io: this.fileIo(atomic.handle),
          atomic,
          written,
          path: client,
        }),
      );
      return;
    }
    const handle = await this.sandbox().open(target, openFlags(flags), (attrs.mode ?? 0o644) & 0o777);
    this.sftp.handle(
      id,
      this.add({ kind: 'file', handle, io: this.fileIo(handle), atomic: null, written, path: client }),
    );
  }

  private async doClose(id: number, h: Buffer): Promise<void> {
    const entry = this.entry(h);
    this.open.delete(h.readUInt32BE(0));
    if (entry.kind === 'file') await this.closeFile(entry, true);
    this.sftp.status(id, STATUS_CODE.OK);
    // One entry per file written (an upload is many WRITEs), once its handle is closed and the file kept.
    if (entry.kind === 'file' && entry.written)
      this.access.record?.({ action: 'sftp.file.write', path: entry.written });
  }

  private async doOpendir(id: number, path: string): Promise<void> {
    const target = sandboxPath(path);
    if (!(await this.sandbox().lstat(target)).isDirectory()) throw new AppError('ErrNotADirectory', { path });
    this.sftp.handle(id, this.add({ kind: 'dir', path: target, entries: null, sent: 0 }));
  }

  private async doReaddir(id: number, h: Buffer): Promise<void> {
    const entry = this.entry(h);
    if (entry.kind !== 'dir') throw new AppError('ErrNotADirectory', { path: 'handle' });
    entry.entries ??= await this.sandbox().list(entry.path);
    const batch = entry.entries.slice(entry.sent, entry.sent + NAMES_PER_READDIR);
    entry.sent += batch.length;
    if (batch.length === 0) return void this.sftp.status(id, STATUS_CODE.EOF);
    this.sftp.name(
      id,
      batch.map((e) => ({ filename: e.name, longname: longname(e.name, e.stats), attrs: attrsOf(e.stats) })),
    );
  }

  private async doStat(id: number, path: string): Promise<void> {
    this.sftp.attrs(id, attrsOf(await this.sandbox().lstat(sandboxPath(path))));
  }

  /** Mode (permission bits only), times and size; owner changes are ignored (the daemon's user owns all). */
  private async setstat(id: number, handle: FileHandle, attrs: Attributes): Promise<void> {
    if (attrs.mode !== undefined) await chmodHandle(handle, attrs.mode);
    if (attrs.atime !== undefined && attrs.mtime !== undefined) await handle.utimes(attrs.atime, attrs.mtime);
    if (attrs.size !== undefined) await handle.truncate(attrs.size);
    this.sftp.status(id, STATUS_CODE.OK);
  }

  /**
   * A chmod, utimes or truncate for the activity log (docs/activity.md § Node events): what changed, never
   * owners (ignored) — only the attributes the request set. A request that set none records nothing.
   */
  private recordSetstat(path: string, attrs: Attributes): void {
    const change: SftpChange = { action: 'sftp.file.setstat', path };
    if (attrs.mode !== undefined) change.mode = (attrs.mode & 0o777).toString(8).padStart(4, '0');
    if (attrs.atime !== undefined && attrs.mtime !== undefined) change.times = true;
    if (attrs.size !== undefined) change.size = attrs.size;
    if (change.mode === undefined && change.times === undefined && change.size === undefined) return;
    this.access.record?.(change);
  }

  /** Queued reads and writes finish first: they use the raw descriptor, which closing frees for reuse. */
  private async closeFile(entry: Extract<Open, { kind: 'file' }>, keep: boolean): Promise<void> {
    await entry.io.idle();
    if (!entry.atomic) await entry.handle.close();
    else await (keep ? entry.atomic.commit() : entry.atomic.discard());
  }

  private async closeAll(): Promise<void> {
    for (const entry of this.open.values()) {
      if (entry.kind === 'file') await this.closeFile(entry, false);
    }
    this.open.clear();
  }
}
