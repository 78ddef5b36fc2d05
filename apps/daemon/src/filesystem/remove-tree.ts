/**
 * Recursive delete through descriptors: each folder is opened from its parent without following links, so
 * a folder swapped for a symlink mid-delete makes the walk unlink the link, never descend through it.
 */
import { open, readdir, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { AppError } from '@hearth/contract';
import { at, DIR_FLAGS } from './fd-walk';

/** Deeper trees than this are refused (each level holds one descriptor). */
const MAX_DEPTH = 256;

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code ?? '';

export async function removeTree(parent: FileHandle, name: string, depth = 0): Promise<void> {
  if (depth > MAX_DEPTH) throw new AppError('ErrFieldInvalid', { field: 'path', reason: 'too deep' });
  let folder: FileHandle;
  try {
    folder = await open(at(parent, name), DIR_FLAGS);
  } catch (err) {
    // Not a folder (any more), or a symlink: remove the entry itself.
    if (codeOf(err) === 'ELOOP' || codeOf(err) === 'ENOTDIR') return unlink(at(parent, name));
    if (codeOf(err) === 'ENOENT') return;
    throw err;
  }
  try {
    for (const entry of await readdir(at(folder), { withFileTypes: true })) {
      if (entry.isDirectory()) await removeTree(folder, entry.name, depth + 1);
      else
        await unlink(at(folder, entry.name)).catch((err: unknown) => {
          if (codeOf(err) === 'EISDIR') return removeTree(folder, entry.name, depth + 1);
          if (codeOf(err) !== 'ENOENT') throw err;
        });
    }
  } finally {
    await folder.close();
  }
  await rmdir(at(parent, name));
}
