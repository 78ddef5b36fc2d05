/**
 * Samples while a step runs (every 100 ms): a process's resident memory (VmRSS) and the bytes under the folders
 * where a backup could stage anything besides the repository itself (restic's `tmp/` and `cache/` in the node's
 * backups folder), so the peak of each is known after the step. Not the filesystem's free space: the other
 * work on a shared machine moves it by more than what is measured.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return Number(line?.[1] ?? 0) * 1024;
}

/** Bytes of the files under `paths` (missing ones count 0). */
export function usedBytes(paths: string[]): number {
  let total = 0;
  const walk = (path: string): void => {
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      return; // removed while walked (restic renames and deletes its temporary packs)
    }
    if (stat.isDirectory()) {
      let names: string[] = [];
      try {
        names = readdirSync(path);
      } catch {
        return;
      }
      for (const name of names) walk(join(path, name));
    } else total += stat.size;
  };
  for (const path of paths) walk(path);
  return total;
}

export interface Peaks {
  rss: number;
  used: number;
}

export async function sampled<T>(
  pid: number,
  paths: string[],
  work: () => Promise<T>,
): Promise<{ value: T; peaks: Peaks }> {
  const peaks: Peaks = { rss: rssBytes(pid), used: usedBytes(paths) };
  const take = () => {
    peaks.rss = Math.max(peaks.rss, rssBytes(pid));
    peaks.used = Math.max(peaks.used, usedBytes(paths));
  };
  const timer = setInterval(take, 100);
  try {
    const value = await work();
    take();
    return { value, peaks };
  } finally {
    clearInterval(timer);
  }
}
