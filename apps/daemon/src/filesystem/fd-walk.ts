/**
 * The descriptor walk under the sandbox (ADR 0002). Node has no `openat`, but on Linux
 * `/proc/self/fd/<dirfd>/<name>` is resolved by the kernel relative to the open folder `dirfd`, so opening
 * each path component through its parent's descriptor with `O_NOFOLLOW | O_DIRECTORY` is an openat walk:
 * a symlink anywhere on the way fails the open (ELOOP/ENOTDIR) instead of being followed, and a folder
 * swapped for a symlink after we opened it changes nothing, because we keep using the descriptor.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, readlink, type FileHandle } from 'node:fs/promises';
import { AppError } from '@hearth/contract';
import { illegal, isInside } from './paths';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = constants;
export const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;

/** The path of an entry `name` inside the open folder `dir` (or of the folder itself). */
export function at(dir: FileHandle, name?: string): string {
  return name === undefined || name === '' ? `/proc/self/fd/${dir.fd}` : `/proc/self/fd/${dir.fd}/${name}`;
}

function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? '';
}

/** errno → catalogue, with the user's path (never the host path) in the metadata. */
export function fsError(err: unknown, path: string): unknown {
  switch (codeOf(err)) {
    case 'ENOENT':
      return new AppError('ErrFileNotFound', { path }, { cause: err });
    case 'EEXIST':
    case 'ENOTEMPTY':
      return new AppError('ErrFileExists', { path }, { cause: err });
    case 'ENOTDIR':
      return new AppError('ErrNotADirectory', { path }, { cause: err });
    case 'EISDIR':
      return new AppError('ErrNotAFile', { path }, { cause: err });
    case 'ELOOP':
      return illegal(path, 'symlink');
    case 'EXDEV':
      return illegal(path, 'outside the server folder');
    default:
      return err;
  }
}

/** Who owns what the sandbox creates (the server's uid/gid when the daemon isolates it); null = the daemon. */
export interface FileOwner {
  uid: number;
  gid: number;
}

/** Gives an entry the sandbox just created to `owner` (fchown on its descriptor); closes it on failure. */
export async function ownNew(handle: FileHandle, owner: FileOwner | null): Promise<FileHandle> {
  if (!owner) return handle;
  try {
    await handle.chown(owner.uid, owner.gid);
    return handle;
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** Opens one child folder of `dir`, never through a symlink; creates it first (owned by `owner`) when asked. */
async function openChild(
  dir: FileHandle,
  name: string,
  create: boolean,
  path: string,
  owner: FileOwner | null = null,
): Promise<FileHandle> {
  try {
    return await open(at(dir, name), DIR_FLAGS);
  } catch (err) {
    const code = codeOf(err);
    if (code === 'ENOENT' && create) {
      const made = await mkdir(at(dir, name), 0o755).then(
        () => true,
        (e: unknown) => {
          if (codeOf(e) !== 'EEXIST') throw fsError(e, path);
          return false; // made by someone else meanwhile: theirs, not ours to re-own
        },
      );
      const child = await openChild(dir, name, false, path);
      return made ? ownNew(child, owner) : child;
    }
    if (code === 'ELOOP' || code === 'ENOTDIR') {
      const info = await lstat(at(dir, name)).catch(() => null);
      if (info?.isSymbolicLink()) throw illegal(path, 'symlink in the path');
    }
    throw fsError(err, path);
  }
}

/**
 * Opens the folder `segments` below the root, one component at a time. The caller closes the result
 * (which may be a fresh descriptor of the root itself when `segments` is empty).
 */
export async function openDir(
  root: string,
  segments: string[],
  path: string,
  create = false,
  owner: FileOwner | null = null,
): Promise<FileHandle> {
  // The root path itself is the admin's (it may legitimately be a symlink); everything below is not.
  let current = await open(root, O_RDONLY | O_DIRECTORY).catch((err: unknown) => {
    throw fsError(err, path);
  });
  try {
    for (const name of segments) {
      const next = await openChild(current, name, create, path, owner);
      await current.close();
      current = next;
    }
    return current;
  } catch (err) {
    await current.close();
    throw err;
  }
}

/**
 * Belt and braces: the kernel's name for an open descriptor must be inside the real root. Catches a folder
 * that was moved out of the root (e.g. by a process with access to both) after we opened it.
 */
export async function assertInside(handle: FileHandle, realRoot: string, path: string): Promise<void> {
  const real = await readlink(at(handle));
  if (!isInside(realRoot, real)) throw illegal(path, 'outside the server folder');
}
