/** What /proc says about the processes a supervision test cares about. */
import { readdir, readFile, readlink } from 'node:fs/promises';
import { waitFor } from '../helpers/poll';
import { startTimeOf } from '../../src/environment/holder/proc';

/**
 * Pids of living (not zombie) Node processes whose command line contains `marker`: the game itself, not its
 * holder or a wrapper (env, setpriv, bwrap) whose arguments name it too.
 */
export async function pidsWith(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    const argv = cmdline.split('\0');
    const game = argv[0] === process.execPath && argv.join(' ').includes(marker);
    if (game && state !== 'Z' && state !== '') pids.push(Number(name));
  }
  return pids;
}

/** True while the process `pid` started at `start` lives (and is no zombie). */
export async function running(pid: number, start: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== '' && state !== 'Z' && (await startTimeOf(pid)) === start;
}

/** The one game process with `marker` (waits for it to exist). */
export async function gamePid(marker: string): Promise<number> {
  const pids = await waitFor(async () => {
    const found = await pidsWith(marker);
    return found.length === 1 ? found : null;
  }, `one game process ${marker}`);
  return pids[0] ?? 0;
}

/** SIGKILLs every process working under `dir` (holders, games) and waits until they are gone. */
export async function killEverythingUnder(dir: string): Promise<void> {
  const under = async () => {
    const pids: number[] = [];
    for (const name of await readdir('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const cwd = await readlink(`/proc/${name}/cwd`).catch(() => '');
      if (cwd.startsWith(dir)) pids.push(Number(name));
    }
    return pids;
  };
  for (const pid of await under()) process.kill(pid, 'SIGKILL');
  await waitFor(async () => (await under()).length === 0, `no process left under ${dir}`);
}
