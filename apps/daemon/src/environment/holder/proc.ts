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

/** Field 22 of /proc/<pid>/stat, or null when no such process exists. */
export async function startTimeOf(pid: number): Promise<number | null> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (text === null) return null;
  // The name (field 2) may hold spaces and parentheses: fields 3… follow the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const start = Number(fields[19]); // fields[0] is field 3
  return Number.isFinite(start) ? start : null;
}

let cachedBootId: string | null = null;

/** This boot of the machine: a record from before a reboot names no living process. */
export async function bootId(): Promise<string> {
  cachedBootId ??= (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
  return cachedBootId;
}

/** True while the very process `ref` names (same pid, same start time, this boot) exists, zombie or not. */
export async function isAlive(ref: ProcRef, boot: string): Promise<boolean> {
  if (boot !== (await bootId())) return false;
  return (await startTimeOf(ref.pid)) === ref.start;
}
