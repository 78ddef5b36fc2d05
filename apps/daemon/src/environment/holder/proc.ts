/**
 * What /proc says about a process the holder recorded: a pid alone can name another process after reuse, so a
 * record is trusted only while the pid's start time (field 22 of /proc/<pid>/stat, clock ticks after boot) and
 * the machine's boot id match what the holder wrote (docs/daemon.md § Supervision).
 */
import { readFile } from 'node:fs/promises';

/** A process as the holder recorded it. */
export interface ProcRef {
  pid: number;
  /** Field 22 of /proc/<pid>/stat. */
  start: number;
}

/** Fields 3 (state) and 22 (start time) of /proc/<pid>/stat, or null when no such process exists. */
async function statOf(pid: number): Promise<{ state: string; start: number } | null> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (text === null) return null;
  // The name (field 2) may hold spaces and parentheses: fields 3… follow the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const start = Number(fields[19]); // fields[0] is field 3
  return Number.isFinite(start) ? { state: fields[0] ?? '', start } : null;
}

/** Field 22 of /proc/<pid>/stat, or null when no such process exists. */
export async function startTimeOf(pid: number): Promise<number | null> {
  return (await statOf(pid))?.start ?? null;
}

let cachedBootId: string | null = null;

/** This boot of the machine: a record from before a reboot names no living process. */
export async function bootId(): Promise<string> {
  cachedBootId ??= (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
  return cachedBootId;
}

/**
 * True while the very process `ref` names (same pid, same start time, this boot) runs. A zombie has ended: it
 * only waits for its parent (the holder of a finishing run, or the daemon for a holder it started).
 */
export async function isAlive(ref: ProcRef, boot: string): Promise<boolean> {
  if (boot !== (await bootId())) return false;
  const stat = await statOf(ref.pid);
  return stat !== null && stat.start === ref.start && stat.state !== 'Z' && stat.state !== 'X';
}
