/**
 * The stats of a folder's entries, for listings. `lstat` of a name the kernel has just
 * handed out by `readdir` is a dentry-cache hit of a few microseconds; through `fs.promises` each one also
 * costs a promise, a trip through libuv's thread pool and a wake-up of the loop: 10,000 entries took ~140 ms
 * of CPU that way against ~45 ms synchronously (docs/performance.md "Files"). They are therefore made
 * synchronously, in slices with a turn of the event loop between them, so the loop is held for about a
 * millisecond per slice (a sync call on a hung filesystem would block it, as it would the thread pool). Paths go
 * through the folder's descriptor (fd-walk.ts) exactly as before: same sandbox, same `lstat` (a symlink is an
 * entry, never followed).
 */
import { lstatSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { at } from './fd-walk';

/** Entries per slice: ~1 ms of `lstat` on a warm cache, then the loop serves others. */
const SLICE = 512;

function lstatOne(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (err) {
    // As with the asynchronous walk: an entry that cannot be read (removed, replaced) is left out.
    if ((err as NodeJS.ErrnoException).code !== undefined) return undefined;
    throw err;
  }
}

/**
 * `lstat` of each name in `dir`, each turned into what the caller keeps by `map` at once (a listing keeps
 * four fields, so the `Stats` objects die young); an entry removed meanwhile is just gone.
 */
export async function lstatEach<T>(
  dir: FileHandle,
  names: string[],
  map: (name: string, stats: Stats) => T,
): Promise<T[]> {
  const entries: T[] = [];
  const prefix = `${at(dir)}/`; // the same path as at(dir, name), built once
  for (let i = 0; i < names.length; i += SLICE) {
    if (i > 0) await nextTurn();
    const end = Math.min(i + SLICE, names.length);
    for (let j = i; j < end; j += 1) {
      const name = names[j] as string;
      const stats = lstatOne(prefix + name);
      if (stats) entries.push(map(name, stats));
    }
  }
  return entries;
}
