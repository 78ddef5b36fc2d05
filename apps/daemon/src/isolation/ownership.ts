/**
 * Hands a server's folder to the server's ids before each of its processes starts (docs/security.md "Isolation
 * model"): the folder itself becomes <uid>:<gid> mode 0700, and every entry below not already the server's is
 * lchown'ed by the descriptor walk of filesystem/chown-tree.ts (links re-owned themselves, never followed; device
 * nodes and files with other hard links left alone).
 */
import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { chownChildren } from '../filesystem/chown-tree';
import type { ServerIds } from './ids';

/** The folder `root` (created if missing) and everything in it, owned by `ids`; the folder itself 0700. */
export async function handFolderTo(root: string, ids: ServerIds, walk = true): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  const dir = await open(root, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await dir.chown(ids.uid, ids.gid);
    await dir.chmod(0o700);
    if (walk) await chownChildren(dir, ids);
  } finally {
    await dir.close();
  }
}
