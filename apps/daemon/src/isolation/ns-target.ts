/**
 * Where a stop signal must go when the server runs in bubblewrap's pid namespace. The process the spawner
 * started is bwrap itself, which does not forward signals: killed, it leaves the game running (and the group
 * kill that follows would SIGKILL it instead of stopping it gracefully). The game is the process of that tree
 * that is pid 2 inside its namespace (bwrap's init is pid 1), found from /proc.
 */
import { readdir, readFile } from 'node:fs/promises';

async function parentsByPid(): Promise<Map<number, number[]>> {
  const children = new Map<number, number[]>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => null); // gone meanwhile
    if (stat === null) continue;
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
  }
  return children;
}

/** Innermost namespace pid of `pid` ("NSpid: 4711 2" → 2), or null when it is not in a child namespace. */
async function innerPid(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const fields = /^NSpid:\s*(.*)$/m.exec(status)?.[1]?.trim().split(/\s+/) ?? [];
  return fields.length >= 2 ? Number(fields[fields.length - 1]) : null;
}

/** The host pid of the sandboxed main process below `rootPid`, or null when there is none (any more). */
export async function sandboxedMain(rootPid: number): Promise<number | null> {
  const children = await parentsByPid();
  const queue = [rootPid];
  for (let i = 0; i < queue.length && i < 64; i += 1) {
    const pid = queue[i] as number;
    if (pid !== rootPid && (await innerPid(pid)) === 2) return pid;
    queue.push(...(children.get(pid) ?? []));
  }
  return null;
}

/**
 * Sends `signal` to a server's main process: the game inside bubblewrap when `pid` leads a sandbox, else `pid`
 * itself. For every path that signals a server process by pid (a re-adopted holder's too). ESRCH is ignored.
 */
export async function signalServerProcess(pid: number, signal: NodeJS.Signals | number): Promise<void> {
  const target = (await sandboxedMain(pid).catch(() => null)) ?? pid;
  try {
    process.kill(target, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}
