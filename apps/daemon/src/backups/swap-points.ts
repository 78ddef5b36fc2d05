/**
 * Where a partial restore swaps (docs/backups.md § Restore): each chosen path, unless a folder above it in the
 * live server folder is not a real folder — a symlink the game (or a user) planted, or a file. Renaming through
 * such a component would follow the link out of the server folder, so the swap happens at that component
 * instead: it is replaced whole by the snapshot's folder. Paths inside another chosen path are left out (the
 * outer swap brings them).
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';

async function kindAt(path: string): Promise<'dir' | 'missing' | 'other'> {
  try {
    return (await lstat(path)).isDirectory() ? 'dir' : 'other';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
}

async function swapPoint(root: string, path: string): Promise<string> {
  const parts = path.split('/');
  for (let k = 1; k < parts.length; k += 1) {
    const prefix = parts.slice(0, k).join('/');
    const kind = await kindAt(join(root, prefix));
    if (kind === 'missing') return path; // created as real folders by the swap
    if (kind === 'other') return prefix;
  }
  return path;
}

const inside = (path: string, outer: string) => outer === '' || path.startsWith(`${outer}/`);

export async function swapPoints(root: string, paths: readonly string[]): Promise<string[]> {
  const points = [...new Set(await Promise.all(paths.map((p) => swapPoint(root, p))))];
  return points.filter((p) => !points.some((other) => other !== p && inside(p, other)));
}
