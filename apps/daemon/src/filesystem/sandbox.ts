/**
 * THE filesystem sandbox of one server folder (ARCHITECTURE §5.2, ADR 0002). Every path from HTTP, the
 * socket, SFTP, processors, archive and extract goes through here. Paths are relative (no `..`, no NUL, not
 * absolute); each component is opened through its parent's descriptor without following symlinks
 * (fd-walk.ts), so a symlink is an entry, never a way out, and a swap between check and use cannot redirect
 * an operation. Writes are atomic (temp file in the same folder + rename). Everything it creates is fchown'ed to
 * the server's ids when the daemon isolates the server (docs/security.md "Isolation model").
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import {
  lchown,
  lstat,
  mkdir,
  open,
  readdir,
  realpath,
  rename,
  rmdir,
  stat,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import { Readable } from 'node:stream';
import { dirname, relative } from 'node:path';
import {
  AppError,
  isAppError,
  MAX_FILE_MODE,
  type FileCopyReport,
  type FileSearchResult,
} from '@hearth/contract';
import { copyEntry, type CopyLimits } from './copy-tree';
import { expandGlob } from './glob';
import { assertInside, at, fsError, openDir, ownNew, type FileOwner } from './fd-walk';
import { illegal, isInside, lexicalPath, segmentsOf, splitLast } from './paths';
import { lstatEach } from './lstat-entries';
import { removeTree } from './remove-tree';
import { searchNames, type SearchBounds } from './search';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
const WRITE_BATCH_BYTES = 1024 * 1024;

export interface AtomicFile {
  handle: FileHandle;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

export interface Entry {
  name: string;
  stats: Stats;
}

function isMissing(err: unknown): boolean {
  return isAppError(err) && (err.code === 'ErrFileNotFound' || err.code === 'ErrNotADirectory');
}

/** `fallback` when the path does not exist; any other failure is rethrown. */
function unlessMissing<T>(fallback: T): (err: unknown) => T {
  return (err) => {
    if (isMissing(err)) return fallback;
    throw err;
  };
}

async function ignoreMissing(work: Promise<unknown>): Promise<void> {
  await work.catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  });
}

export class Sandbox {
  private realRoot: Promise<string> | null = null;
  /** `owner`: who gets what the sandbox creates (read at each creation: it follows the environment type). */
  constructor(
    readonly root: string,
    readonly owner: () => FileOwner | null = () => null,
  ) {}

  private async real(): Promise<string> {
    this.realRoot ??= realpath(this.root);
    return this.realRoot;
  }

  /** Runs `work` with the open folder `userPath`; errno errors become catalogued ones. */
  async withDir<T>(userPath: string, work: (dir: FileHandle) => Promise<T>, create = false): Promise<T> {
    const dir = await openDir(this.root, segmentsOf(userPath), userPath, create, this.owner());
    try {
      await assertInside(dir, await this.real(), userPath);
      return await work(dir);
    } catch (err) {
      throw fsError(err, userPath);
    } finally {
      await dir.close();
    }
  }

  /** Runs `work` with the open parent folder of `userPath` and the last name (`''` for the root). */
  async withParent<T>(
    userPath: string,
    work: (dir: FileHandle, name: string) => Promise<T>,
    create = false,
  ): Promise<T> {
    const { parent, name } = splitLast(segmentsOf(userPath));
    return this.withDir(parent.join('/'), (dir) => work(dir, name), create);
  }

  private async named<T>(
    userPath: string,
    work: (dir: FileHandle, name: string) => Promise<T>,
    create = false,
  ): Promise<T> {
    return this.withParent(
      userPath,
      (dir, name) => {
        if (name === '') throw illegal(userPath, 'the server folder itself');
        return work(dir, name);
      },
      create,
    );
  }

  /** Stats of the entry itself (a symlink is reported as a symlink, never followed). */
  lstat(userPath: string): Promise<Stats> {
    return this.withParent(userPath, (dir, name) => (name === '' ? stat(at(dir)) : lstat(at(dir, name))));
  }

  async exists(userPath: string): Promise<boolean> {
    return this.lstat(userPath).then(() => true, unlessMissing(false));
  }

  async isDirectory(userPath: string): Promise<boolean> {
    return this.lstat(userPath).then((s) => s.isDirectory(), unlessMissing(false));
  }

  /** The entries of a folder with their own stats (symlinks not followed). */
  list(userPath: string): Promise<Entry[]> {
    return this.listWith(userPath, (name, stats) => ({ name, stats }));
  }

  /** {@link list}, each entry mapped by `map` as soon as it is read (listings keep a few fields only). */
  listWith<T>(userPath: string, map: (name: string, stats: Stats) => T): Promise<T[]> {
    return this.withDir(userPath, async (dir) => lstatEach(dir, await readdir(at(dir)), map));
  }

  /**
   * Opens an entry with open(2) flags (`O_NOFOLLOW` always added). The caller closes the handle. Used by
   * downloads, archives and SFTP; a folder is refused unless `allowFolder`.
   */
  open(userPath: string, flags: number = O_RDONLY, mode = 0o644, allowFolder = false): Promise<FileHandle> {
    return this.named(userPath, async (dir, name) => {
      const handle = await open(at(dir, name), flags | O_NOFOLLOW, mode);
      try {
        const info = await handle.stat();
        if (!allowFolder && info.isDirectory()) throw illegalFolder(userPath);
        await assertInside(handle, await this.real(), userPath);
        // A file opened to be created (SFTP) is the server's, as if it had made it; a hard-linked one stays as is.
        const owner = this.owner();
        const foreign = owner && (info.uid !== owner.uid || info.gid !== owner.gid);
        if (foreign && flags & O_CREAT && info.nlink === 1) await handle.chown(owner.uid, owner.gid);
        return handle;
      } catch (err) {
        await handle.close();
        throw err;
      }
    });
  }

  async readText(userPath: string): Promise<string> {
    const handle = await this.open(userPath);
    try {
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  }

  /**
   * A new file written atomically (parents created): write to `handle`, then `commit()` renames it over the
   * target, or `discard()` drops it. An existing symlink or folder of that name is refused. The parent
   * folder stays open (by descriptor) until commit/discard, so the rename lands where the checks were made.
   */
  async createAtomic(userPath: string): Promise<AtomicFile> {
    const { parent, name } = splitLast(segmentsOf(userPath));
    if (name === '') throw illegal(userPath, 'the server folder itself');
    const dir = await openDir(this.root, parent, userPath, true, this.owner());
    try {
      await assertInside(dir, await this.real(), userPath);
      const existing = await lstat(at(dir, name)).catch(() => null);
      if (existing?.isSymbolicLink()) throw illegal(userPath, 'symlink');
      if (existing?.isDirectory()) throw illegalFolder(userPath);
      const temp = tempName();
      const handle = await ownNew(
        await open(at(dir, temp), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644),
        this.owner(),
      );
      const finish = async (keep: boolean) => {
        try {
          await handle.close();
          if (keep) await rename(at(dir, temp), at(dir, name));
        } finally {
          await ignoreMissing(unlink(at(dir, temp)));
          await dir.close();
        }
      };
      return { handle, commit: () => finish(true), discard: () => finish(false) };
    } catch (err) {
      await dir.close();
      throw fsError(err, userPath);
    }
  }

  /**
   * Streams into a file atomically: the file appears only when the stream completed and `verify` (if
   * given) accepted it, so a failed upload, download or save never replaces or truncates a good file.
   * No fsync, neither per batch nor at the end: atomicity against a failed transfer or a crash of
   * the daemon comes from the rename alone; after a power loss, ext4's default `auto_da_alloc` writes the data
   * of a file renamed over another before the rename; a new file may be lost, like any write not yet synced.
   */
  async writeStreamAtomic(userPath: string, source: Readable, verify?: () => void): Promise<void> {
    const file = await this.createAtomic(userPath);
    try {
      // A plain loop, not pipeline(): a write stream that must not close its handle never ends pipeline.
      // Chunks are gathered into ~1 MiB writev calls (multipart parsers hand out small pieces).
      let pending: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of source) {
        pending.push(chunk as Uint8Array);
        size += (chunk as Uint8Array).length;
        if (size < WRITE_BATCH_BYTES) continue;
        await file.handle.writev(pending);
        pending = [];
        size = 0;
      }
      if (pending.length > 0) await file.handle.writev(pending);
      verify?.();
    } catch (err) {
      await file.discard();
      throw fsError(err, userPath);
    }
    await file.commit();
  }

  writeAtomic(userPath: string, data: string | Uint8Array): Promise<void> {
    return this.writeStreamAtomic(userPath, Readable.from([Buffer.from(data)]));
  }

  /** Creates one folder; the parent must exist. */
  mkdir(userPath: string): Promise<void> {
    return this.named(userPath, async (dir, name) => {
      await mkdir(at(dir, name), 0o755);
      const owner = this.owner();
      if (owner) await lchown(at(dir, name), owner.uid, owner.gid); // lchown: a swapped-in link is not followed
    });
  }

  /** Creates a folder and its parents; returns the lexical absolute path (for a process's cwd). */
  async mkdirp(userPath: string): Promise<string> {
    await this.withDir(userPath, async () => undefined, true);
    return lexicalPath(this.root, userPath);
  }

  /**
   * Renames inside the sandbox (rename(2): atomic); both parents are opened without following links. A taken
   * target is refused unless `overwrite`: then a file is replaced by rename(2) itself, and a folder (or an entry
   * of the other kind) is moved aside first and removed once the new one is in place (`replaceFolders`; without
   * it rename(2) decides, which replaces only an empty folder — the move processor's behaviour). A folder is
   * never moved into itself. Without `overwrite` the check and the rename are two steps (Node has no
   * renameat2(RENAME_NOREPLACE)): a name another process takes in between is replaced.
   */
  async rename(
    fromUser: string,
    toUser: string,
    opts: { overwrite: boolean; mkdirs?: boolean; replaceFolders?: boolean },
  ): Promise<void> {
    refuseIntoItself(fromUser, toUser);
    return this.named(fromUser, (from, fromName) =>
      this.named(
        toUser,
        async (to, toName) => {
          const existing = await lstat(at(to, toName)).catch(() => null);
          if (existing && !opts.overwrite)
            throw fsError(Object.assign(new Error('exists'), { code: 'EEXIST' }), toUser);
          if (existing && opts.replaceFolders) {
            const source = await lstat(at(from, fromName));
            if (existing.isDirectory() || source.isDirectory()) {
              return this.replaceAside(to, toName, () => rename(at(from, fromName), at(to, toName)));
            }
          }
          await rename(at(from, fromName), at(to, toName));
        },
        opts.mkdirs ?? false,
      ),
    );
  }

  /** Moves the entry `name` aside, runs `place` (which puts the new one there), then removes the old one. */
  private async replaceAside(dir: FileHandle, name: string, place: () => Promise<void>): Promise<void> {
    const aside = tempName();
    await rename(at(dir, name), at(dir, aside));
    try {
      await place();
    } catch (err) {
      await rename(at(dir, aside), at(dir, name)).catch(() => undefined);
      throw err;
    }
    const info = await lstat(at(dir, aside));
    if (info.isDirectory()) await removeTree(dir, aside);
    else await unlink(at(dir, aside));
  }

  /**
   * Copies a file or a folder with everything in it (copy-tree.ts): written under a temp name beside the
   * target, renamed into place when complete. A taken target is refused unless `overwrite` (then replaced as
   * {@link rename} replaces). Symlinks are refused as the source and skipped (reported) inside a folder.
   */
  async copy(
    fromUser: string,
    toUser: string,
    opts: { overwrite: boolean; limits: CopyLimits },
  ): Promise<FileCopyReport> {
    refuseIntoItself(fromUser, toUser);
    return this.named(fromUser, async (from, fromName) => {
      const source = await lstat(at(from, fromName));
      if (source.isSymbolicLink()) throw illegal(fromUser, 'symlink');
      if (!source.isFile() && !source.isDirectory()) throw illegal(fromUser, 'not a file or folder');
      return this.named(toUser, async (to, toName) => {
        if (!opts.overwrite && (await lstat(at(to, toName)).catch(() => null)))
          throw fsError(Object.assign(new Error('exists'), { code: 'EEXIST' }), toUser);
        const temp = tempName();
        const owner = this.owner();
        let report;
        try {
          report = await copyEntry(from, fromName, to, temp, source.isDirectory(), opts.limits, owner);
          const existing = await lstat(at(to, toName)).catch(() => null);
          if (existing && !opts.overwrite)
            throw fsError(Object.assign(new Error('exists'), { code: 'EEXIST' }), toUser);
          if (existing && (existing.isDirectory() || source.isDirectory()))
            await this.replaceAside(to, toName, () => rename(at(to, temp), at(to, toName)));
          else await rename(at(to, temp), at(to, toName));
        } catch (err) {
          await removeTree(to, temp).catch(() => undefined);
          throw err;
        }
        return { path: segmentsOf(toUser).join('/'), ...report };
      });
    });
  }

  /**
   * Sets the permission bits of a file or folder (0–0777; setuid, setgid and sticky are refused). Opened
   * with `O_NOFOLLOW` and changed through that descriptor (fchmod), so a symlink — whose chmod would change
   * its target — is refused, even one swapped in after a check. SFTP's setstat uses {@link chmodHandle} too.
   */
  async chmod(userPath: string, mode: number): Promise<void> {
    checkMode(mode);
    return this.named(userPath, async (dir, name) => {
      const info = await lstat(at(dir, name));
      if (info.isSymbolicLink()) throw illegal(userPath, 'symlink');
      // O_RDONLY, or O_WRONLY for a file nobody may read (the daemon's own, when it is not root).
      const handle = await open(at(dir, name), O_RDONLY | O_NOFOLLOW).catch((err: unknown) => {
        if ((err as NodeJS.ErrnoException).code !== 'EACCES' || info.isDirectory()) throw err;
        return open(at(dir, name), O_WRONLY | O_NOFOLLOW);
      });
      try {
        await assertInside(handle, await this.real(), userPath);
        await chmodHandle(handle, mode);
      } finally {
        await handle.close();
      }
    });
  }

  /** Names below the folder `userPath` matching `query` (search.ts): bounded, symlinks never followed. */
  search(userPath: string, query: string, bounds: SearchBounds): Promise<FileSearchResult> {
    return this.withDir(userPath, (dir) => searchNames(dir, segmentsOf(userPath).join('/'), query, bounds));
  }

  /** The move processor: parents of the target created, an existing target replaced. */
  move(fromUser: string, toUser: string): Promise<void> {
    return this.rename(fromUser, toUser, { overwrite: true, mkdirs: true });
  }

  /** Deletes a file, symlink (the link, not its target) or a folder with everything in it. */
  remove(userPath: string): Promise<void> {
    return this.named(userPath, async (dir, name) => {
      const info = await lstat(at(dir, name));
      if (info.isDirectory()) await removeTree(dir, name);
      else await unlink(at(dir, name));
    });
  }

  /** SFTP rmdir: an empty folder only. */
  rmdir(userPath: string): Promise<void> {
    return this.named(userPath, (dir, name) => rmdir(at(dir, name)));
  }

  /** SFTP remove: not a folder. */
  unlink(userPath: string): Promise<void> {
    return this.named(userPath, (dir, name) => unlink(at(dir, name)));
  }

  /** Glob below the root through the sandbox's own listing (a symlinked folder is not descended). */
  async glob(pattern: string): Promise<string[]> {
    segmentsOf(pattern);
    return expandGlob(async (folder) => {
      const entries = await this.list(folder).catch(unlessMissing<Entry[]>([]));
      return entries.map((e) => e.name);
    }, pattern);
  }

  /**
   * A lexical absolute path whose existing part stays inside the real root (for a process's working
   * directory, which is handed to another program; file operations never use it).
   */
  async resolve(userPath: string): Promise<string> {
    const full = lexicalPath(this.root, userPath);
    const realRoot = await this.real();
    for (let probe = full; ; probe = dirname(probe)) {
      const real = await realpath(probe).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR') throw err;
        if (probe === this.root) throw err;
        return null;
      });
      if (real === null) continue;
      if (!isInside(realRoot, real)) throw illegal(userPath, 'symlink leads outside the server folder');
      return full;
    }
  }

  /** The path relative to the root, for console lines (never leak the host layout). */
  display(absolute: string): string {
    return relative(this.root, absolute) || '.';
  }
}

/** A hidden name for work in progress beside its target (uploads, copies, a replaced folder). */
function tempName(): string {
  return `.hearth-${randomBytes(8).toString('hex')}.tmp`;
}

/** A folder moved or copied into itself (or onto itself) would never end, or lose the folder. */
function refuseIntoItself(fromUser: string, toUser: string): void {
  const from = segmentsOf(fromUser).join('/');
  const to = segmentsOf(toUser).join('/');
  if (from !== '' && (to === from || to.startsWith(`${from}/`)))
    throw new AppError('ErrMoveIntoItself', { path: toUser });
}

/** Permission bits only: the file manager and SFTP never set setuid, setgid or sticky. */
function checkMode(mode: number): void {
  if (!Number.isInteger(mode) || mode < 0 || mode > MAX_FILE_MODE)
    throw new AppError('ErrFieldInvalid', { field: 'mode' });
}

/** fchmod of an open entry, permission bits only (SFTP masks what a client sends; HTTP refuses more). */
export async function chmodHandle(handle: FileHandle, mode: number): Promise<void> {
  await handle.chmod(mode & MAX_FILE_MODE);
}

function illegalFolder(userPath: string) {
  return fsError(Object.assign(new Error('is a folder'), { code: 'EISDIR' }), userPath);
}
