/**
 * Search by name below a folder of the sandbox (docs/files.md § Search): depth-first through descriptors
 * (fd-walk.ts), each folder opened from its parent with `O_NOFOLLOW`, so a symlink is matched by its own name
 * and never descended; a folder swapped for a link meanwhile fails its open and is skipped. Bounded by the
 * number of results, the depth below the start, the entries looked at and the time spent; hitting any bound
 * sets `truncated`.
 */
import type { Stats } from 'node:fs';
import { open, readdir, type FileHandle } from 'node:fs/promises';
import { FILE_SEARCH_LIMITS, globMatch, type FileSearchHit, type FileSearchResult } from '@hearth/contract';
import { at, DIR_FLAGS } from './fd-walk';
import { lstatEach } from './lstat-entries';

export interface SearchBounds {
  limit: number;
  maxDepth: number;
  maxEntries: number;
  maxMs: number;
}

export const defaultSearchBounds = (limit: number = FILE_SEARCH_LIMITS.defaultResults): SearchBounds => ({
  limit,
  maxDepth: FILE_SEARCH_LIMITS.maxDepth,
  maxEntries: FILE_SEARCH_LIMITS.maxEntries,
  maxMs: FILE_SEARCH_LIMITS.maxMs,
});

/**
 * `*` and `?` make a glob on the whole name; anything else is a substring. Both ignore case. The glob is the
 * contract's `globMatch` (a linear-time walk, never a RegExp built from the query: no catastrophic backtracking).
 */
export function nameMatcher(query: string): (name: string) => boolean {
  const needle = query.toLowerCase();
  if (!/[*?]/.test(needle)) return (name) => name.toLowerCase().includes(needle);
  return (name) => globMatch(needle, name.toLowerCase());
}

const hit = (path: string, name: string, s: Stats): FileSearchHit => ({
  path,
  name,
  isFile: !s.isDirectory(),
  size: s.isDirectory() ? 0 : s.size,
  modifyTime: Math.floor(s.mtimeMs / 1000),
});

/** Searches the open folder `start` (whose path below the root is `base`). */
export async function searchNames(
  start: FileHandle,
  base: string,
  query: string,
  bounds: SearchBounds,
): Promise<FileSearchResult> {
  const matches = nameMatcher(query);
  const results: FileSearchHit[] = [];
  const deadline = Date.now() + bounds.maxMs;
  let seen = 0;
  let truncated = false;
  const stop = () => truncated || results.length >= bounds.limit;

  const walk = async (dir: FileHandle, rel: string, depth: number): Promise<void> => {
    const names = (await readdir(at(dir))).sort();
    const entries = await lstatEach(dir, names, (name, stats) => ({ name, stats }));
    const folders: string[] = [];
    for (const { name, stats } of entries) {
      if (results.length >= bounds.limit || seen >= bounds.maxEntries || Date.now() > deadline) {
        truncated = true;
        return;
      }
      seen += 1;
      const path = rel ? `${rel}/${name}` : name;
      if (matches(name)) results.push(hit(path, name, stats));
      if (stats.isDirectory()) folders.push(name);
    }
    for (const name of folders) {
      if (stop()) return;
      if (depth >= bounds.maxDepth) {
        truncated = true;
        return;
      }
      const child = await open(at(dir, name), DIR_FLAGS).catch(() => null); // replaced by a link, removed, unreadable
      if (!child) continue;
      try {
        await walk(child, rel ? `${rel}/${name}` : name, depth + 1);
      } finally {
        await child.close();
      }
    }
  };
  await walk(start, base, 0);
  if (results.length >= bounds.limit) truncated = true;
  return { results: results.slice(0, bounds.limit), truncated };
}
