/**
 * Gives a whole folder tree to one uid:gid through descriptors (ADR 0002, like remove-tree.ts): each folder
 * is opened from its parent's descriptor with `O_NOFOLLOW | O_DIRECTORY` and re-owned with `fchown` on that
 * descriptor; every other entry is re-owned with `lchown` of its name inside the open folder, which changes
 * a symlink itself, never its target. A folder swapped for a symlink mid-walk therefore cannot lead the walk
 * (or a chown) outside the tree: the open fails and the link itself is re-owned instead.
 */
import { lchown, lstat, open, readdir, type FileHandle } from 'node:fs/promises';
import { constants } from 'node:fs';
import { AppError } from '@hearth/contract';
import { at, DIR_FLAGS, type FileOwner } from './fd-walk';

/** Deeper trees than this are refused (each level holds one descriptor), as for the recursive delete. */
const MAX_DEPTH = 256;

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code ?? '';

/** An entry gone meanwhile is nothing to re-own. */
function unlessGone(err: unknown): void {
  if (codeOf(err) !== 'ENOENT') throw err;
}

async function ownFolder(folder: FileHandle, owner: FileOwner): Promise<void> {
  const info = await folder.stat();
  if (info.uid !== owner.uid || info.gid !== owner.gid) await folder.chown(owner.uid, owner.gid);
}

/** Re-owns one non-folder entry by name inside `folder` (never following it). */
async function ownEntry(folder: FileHandle, name: string, owner: FileOwner): Promise<void> {
  const path = at(folder, name);
  const info = await lstat(path).catch((err: unknown) => unlessGone(err));
  if (info && (info.uid !== owner.uid || info.gid !== owner.gid))
    await lchown(path, owner.uid, owner.gid).catch((err: unknown) => unlessGone(err));
}

async function walk(folder: FileHandle, owner: FileOwner, depth: number): Promise<void> {
  if (depth > MAX_DEPTH) throw new AppError('ErrFieldInvalid', { field: 'path', reason: 'too deep' });
  await ownFolder(folder, owner);
  for (const entry of await readdir(at(folder), { withFileTypes: true })) {
    if (!entry.isDirectory()) {
      await ownEntry(folder, entry.name, owner);
      continue;
    }
    const child = await open(at(folder, entry.name), DIR_FLAGS).catch((err: unknown) => {
      // Replaced by a link or a file since readdir: re-own that entry itself, do not descend.
      if (codeOf(err) === 'ELOOP' || codeOf(err) === 'ENOTDIR') return null;
      unlessGone(err);
      return undefined;
    });
    if (child === null) await ownEntry(folder, entry.name, owner);
    if (!child) continue;
    try {
      await walk(child, owner, depth + 1);
    } finally {
      await child.close();
    }
  }
}

/** Re-owns `root` and everything below it that is not `owner`'s yet. `root` itself is the daemon's path. */
export async function chownTree(root: string, owner: FileOwner): Promise<void> {
  const folder = await open(root, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await walk(folder, owner, 0);
  } finally {
    await folder.close();
  }
}
