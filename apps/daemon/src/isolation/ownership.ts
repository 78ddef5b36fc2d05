/**
 * Hands a server's folder to the server's ids before each of its processes starts (docs/security.md "Isolation
 * model"): the folder itself becomes <uid>:<gid> mode 0700, and every entry below not already the server's is
 * lchown'ed. The walk opens each folder from its parent's descriptor without following links (fd-walk.ts), so a
 * symlink planted in the folder is re-owned itself, never what it points at. Device nodes and files with other
 * hard links are left alone: re-owning them would hand the server a device or a file that also lives elsewhere.
 */
import { constants, type Stats } from 'node:fs';
import { lchown, mkdir, open, readdir, type FileHandle } from 'node:fs/promises';
import { at, DIR_FLAGS } from '../filesystem/fd-walk';
import { lstatEach } from '../filesystem/lstat-entries';
import type { ServerIds } from './ids';

/** Deeper folders are not descended (each level holds a descriptor); whatever is that deep, the server made. */
const MAX_DEPTH = 256;

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code ?? '';

/** Entries that may be handed over: not devices, not files that are also linked from elsewhere. */
function transferable(stats: Stats): boolean {
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return false;
  return !(stats.isFile() && stats.nlink > 1);
}

function owned(stats: Stats, ids: ServerIds): boolean {
  return stats.uid === ids.uid && stats.gid === ids.gid;
}

async function ownChildren(dir: FileHandle, ids: ServerIds, depth: number): Promise<void> {
  const names = await readdir(at(dir));
  const entries = await lstatEach(dir, names, (name, stats) => ({ name, stats }));
  for (const { name, stats } of entries) {
    if (!owned(stats, ids) && transferable(stats)) {
      await lchown(at(dir, name), ids.uid, ids.gid).catch((err: unknown) => {
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
      await ownChildren(child, ids, depth + 1);
    } finally {
      await child.close();
    }
  }
}

/** The folder `root` (created if missing) and everything in it, owned by `ids`; the folder itself 0700. */
export async function handFolderTo(root: string, ids: ServerIds, walk = true): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  const dir = await open(root, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await dir.chown(ids.uid, ids.gid);
    await dir.chmod(0o700);
    if (walk) await ownChildren(dir, ids, 0);
  } finally {
    await dir.close();
  }
}
