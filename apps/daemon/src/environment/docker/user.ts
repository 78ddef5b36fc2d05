/**
 * Which uid:gid containers run as, and keeping the server folder writable for it. Default: the daemon's own
 * ids, so files the game writes stay the daemon user's; a daemon running as root uses 1000:1000 instead (a
 * game never runs as root by default) and hands the server folder to that user before each container starts.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { chownChildren } from '../../filesystem/chown-tree';

export interface ContainerUser {
  uid: number;
  gid: number;
}

const ROOT_FALLBACK: ContainerUser = { uid: 1000, gid: 1000 };

export function containerUserOf(configured: string): ContainerUser {
  const match = /^(\d+):(\d+)$/.exec(configured);
  if (match) return { uid: Number(match[1]), gid: Number(match[2]) };
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  return uid === 0 ? ROOT_FALLBACK : { uid, gid };
}

/**
 * Gives every entry under `root` not already owned by `user` to it (a symlink itself, never its target; not devices or files hard-linked from elsewhere). Only possible (and only needed) when the
 * daemon is root and the container user is someone else: files made by install processors are root's.
 */
export async function handOver(root: string, user: ContainerUser): Promise<void> {
  if (process.getuid?.() !== 0 || user.uid === 0) return;
  // Through descriptors (filesystem/chown-tree.ts): a link, a hard link or a swapped folder in the tree cannot
  // lead the walk to a file outside it. The folder's mode stays as it is (the container user owns it).
  const dir = await open(root, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    const info = await dir.stat();
    if (info.uid !== user.uid || info.gid !== user.gid) await dir.chown(user.uid, user.gid);
    await chownChildren(dir, user);
  } finally {
    await dir.close();
  }
}
