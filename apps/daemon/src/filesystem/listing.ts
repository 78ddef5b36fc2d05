/**
 * Folder listings: folders first, then files, each by name ignoring
 * case; a `..` entry when below the root. Sorting uses precomputed lower-case keys and plain comparison
 * (localeCompare costs ~100 ms on 10,000 names).
 */
import type { Stats } from 'node:fs';
import type { FileEntry, FileList } from '@hearth/contract';
import { segmentsOf } from './paths';
import type { Sandbox } from './sandbox';

/** The canonical relative form of a user path (`''` for the root). */
export function canonical(userPath: string): string {
  return segmentsOf(userPath).join('/');
}

export function toFileEntry(name: string, stats: Stats): FileEntry {
  return {
    name,
    isFile: !stats.isDirectory(),
    size: stats.isDirectory() ? 0 : stats.size,
    modifyTime: Math.floor(stats.mtimeMs / 1000),
    mode: stats.mode & 0o7777,
  };
}

export function sortEntries(entries: FileEntry[]): FileEntry[] {
  const keyed = entries.map((e) => ({ e, folder: e.isFile ? 1 : 0, key: e.name.toLowerCase() }));
  keyed.sort((a, b) => a.folder - b.folder || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.e);
}

export async function listFolder(sandbox: Sandbox, userPath: string): Promise<FileList> {
  const path = canonical(userPath);
  const files = sortEntries(await sandbox.listWith(path, toFileEntry));
  if (path !== '') files.unshift({ name: '..', isFile: false, size: 0, modifyTime: 0 });
  return { files, path };
}
