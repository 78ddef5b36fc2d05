/**
 * Finding a benchmark's processes by the tag in their environment (bench/children.ts sets it). Free of side
 * effects, so a test can import it without becoming a benchmark itself.
 */
import { readdirSync, readFileSync } from 'node:fs';

export const TAG_VARIABLE = 'HEARTH_BENCH_TAG';

/** The processes whose environment carries `tag`, except this one. */
export function taggedPids(tag: string): number[] {
  const needle = `${TAG_VARIABLE}=${tag}\0`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      // Zombies have an empty environment: they are already dead, only not yet reaped.
      if (`${readFileSync(`/proc/${pid}/environ`, 'latin1')}\0`.includes(needle)) pids.push(pid);
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}
