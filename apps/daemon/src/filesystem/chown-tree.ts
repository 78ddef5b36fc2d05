/**
 * The one walk that hands a folder tree to a uid:gid (ADR 0002): the isolation's hand-over of a server folder
 * to the server's ids (isolation/ownership.ts) and Docker's to the container user (environment/docker/user.ts).
 * Each folder is opened from its parent's descriptor with `O_NOFOLLOW | O_DIRECTORY` (fd-walk.ts) and every
 * entry is re-owned with `lchown` of its name inside the open folder, which changes a symlink itself, never its
 * target; a folder swapped for a symlink mid-walk is therefore never descended. Device nodes and files with
 * other hard links are left alone: re-owning them would hand over a device, or a file that also lives elsewhere.
 */
import type { Stats } from 'node:fs';
import { lchown, open, readdir, type FileHandle } from 'node:fs/promises';
import { at, DIR_FLAGS, type FileOwner } from './fd-walk';
import { lstatEach } from './lstat-entries';

/** Deeper folders are not descended (each level holds a descriptor); whatever is that deep, the server made. */
const MAX_DEPTH = 256;

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code ?? '';

/** Entries that may be handed over: not devices, not files that are also linked from elsewhere. */
function transferable(stats: Stats): boolean {
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return false;
  return !(stats.isFile() && stats.nlink > 1);
}

function owned(stats: Stats, owner: FileOwner): boolean {
  return stats.uid === owner.uid && stats.gid === owner.gid;
}

/** Everything below the open folder `dir` (not `dir` itself) owned by `owner`. */
export async function chownChildren(dir: FileHandle, owner: FileOwner, depth = 0): Promise<void> {
  const names = await readdir(at(dir));
  const entries = await lstatEach(dir, names, (name, stats) => ({ name, stats }));
  for (const { name, stats } of entries) {
    if (!owned(stats, owner) && transferable(stats)) {
      await lchown(at(dir, name), owner.uid, owner.gid).catch((err: unknown) => {
        if (codeOf(err) !== 'ENOENT') throw err; // removed meanwhile: nothing to hand over
      });
    }
    if (!stats.isDirectory() || depth >= MAX_DEPTH) continue;
    const child = await open(at(dir, name), DIR_FLAGS).catch((err: unknown) => {
      // Replaced by a file or a symlink since the listing, or removed: nothing below to walk.
      if (['ENOENT', 'ENOTDIR', 'ELOOP'].includes(codeOf(err))) return null;
      throw err;
    });
    if (!child) continue;
    try {
      await chownChildren(child, owner, depth + 1);
    } finally {
      await child.close();
    }
  }
}
