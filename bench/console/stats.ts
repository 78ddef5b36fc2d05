/** Small numeric helpers for the benchmark report. */
import { readFileSync } from 'node:fs';

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

export interface ProcSample {
  ticks: number;
  rss: number;
  at: number;
}

/** CPU ticks (user+system) and RSS bytes of one process, from /proc. */
export function sampleProcess(pid: number): ProcSample {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    ticks: Number(fields[11]) + Number(fields[12]),
    rss: Number(fields[21]) * 4096,
    at: Date.now(),
  };
}

export function cpuBetween(a: ProcSample, b: ProcSample): number {
  return ((b.ticks - a.ticks) / 100 / ((b.at - a.at) / 1000)) * 100;
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
