/**
 * CPU and memory of a process tree from /proc (cheap: a directory scan and small reads, no child processes).
 * The tree is every process whose parent chain reaches the root pid, so a `bash -c` wrapper's children count.
 */
import { readdir, readFile } from 'node:fs/promises';

const CLOCK_TICKS = 100; // USER_HZ; 100 on every Linux architecture Node supports
const PAGE_SIZE = 4096;

interface ProcEntry {
  pid: number;
  ppid: number;
  ticks: number;
  rssPages: number;
}

function parseStat(pid: number, text: string): ProcEntry | null {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const num = (i: number) => Number(fields[i] ?? 0);
  if (fields.length < 22) return null;
  // fields[0] is field 3 (state): ppid 4 → [1], utime 14 → [11], stime 15 → [12], rss 24 → [21]
  return { pid, ppid: num(1), ticks: num(11) + num(12), rssPages: num(21) };
}

async function readAll(): Promise<ProcEntry[]> {
  const names = await readdir('/proc');
  const reads = names
    .filter((n) => /^\d+$/.test(n))
    .map(async (n) => {
      const text = await readFile(`/proc/${n}/stat`, 'utf8').catch(() => null); // the process may be gone
      return text === null ? null : parseStat(Number(n), text);
    });
  return (await Promise.all(reads)).filter((e): e is ProcEntry => e !== null);
}

export interface TreeSample {
  ticks: number;
  memory: number;
  at: number;
}

export async function sampleTree(rootPid: number): Promise<TreeSample> {
  const all = await readAll();
  const children = new Map<number, ProcEntry[]>();
  for (const e of all) children.set(e.ppid, [...(children.get(e.ppid) ?? []), e]);
  const root = all.find((e) => e.pid === rootPid);
  const tree: ProcEntry[] = root ? [root] : [];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]?.pid ?? -1) ?? []));
  return {
    ticks: tree.reduce((s, e) => s + e.ticks, 0),
    memory: tree.reduce((s, e) => s + e.rssPages * PAGE_SIZE, 0),
    at: Date.now(),
  };
}

/** Percent of one core between two samples (can exceed 100 on several cores). */
export function cpuPercent(previous: TreeSample, current: TreeSample): number {
  const seconds = (current.at - previous.at) / 1000;
  if (seconds <= 0) return 0;
  const used = Math.max(0, current.ticks - previous.ticks) / CLOCK_TICKS;
  return Math.round((used / seconds) * 10000) / 100;
}
