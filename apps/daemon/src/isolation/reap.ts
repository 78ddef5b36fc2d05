/**
 * Before a deleted server's uid goes back to the pool, every process still running under it is killed: one that
 * left the server's process group (a game that daemonizes) would otherwise share its uid, and so the files, of
 * the next server given that uid (docs/security.md "Isolation model").
 */
import { readdir, readFile } from 'node:fs/promises';

/** Real, effective, saved and filesystem uids from /proc/<pid>/status. */
async function uidsOf(pid: string): Promise<number[]> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''); // ended meanwhile
  return (/^Uid:\s*(.*)$/m.exec(status)?.[1] ?? '').trim().split(/\s+/).filter(Boolean).map(Number);
}

/** SIGKILLs every process any of whose uids is `uid`; the number of processes signalled. */
export async function killProcessesOf(uid: number): Promise<number> {
  let killed = 0;
  for (const pid of (await readdir('/proc')).filter((n) => /^\d+$/.test(n))) {
    if (!(await uidsOf(pid)).includes(uid)) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
      killed += 1;
    } catch {
      // already gone
    }
  }
  return killed;
}
