/**
 * What a daemon finds in a server's run directory at boot (docs/daemon.md § Supervision):
 * - `none`: no record, or a stale one (its processes are gone or their pids now name other processes, or
 *   the machine rebooted since) — nothing to adopt; the directory is cleared;
 * - `running`: the holder lives: re-attach to it;
 * - `ended`: the holder recorded the exit and is gone: report it (crash policy) with the output it kept;
 * - `orphan`: the holder is gone without a record but the process lives (someone killed the holder): the
 *   process cannot be re-attached, so it is killed — never a second copy — and reported as killed.
 */
import { killGroup } from '../spawner';
import type { ExitState } from '../environment';
import { isAlive } from './proc';
import { readExit, readOutput, readState, removeRunDir, type HolderState } from './run-dir';

export type RunFound =
  | { kind: 'none'; invalid: boolean }
  | { kind: 'running'; state: HolderState }
  | { kind: 'ended'; state: HolderState; exit: ExitState; endedAt: number; output: Buffer }
  | { kind: 'orphan'; state: HolderState };

export async function inspectRun(dir: string): Promise<RunFound> {
  const state = await readState(dir);
  if (state === null || state === 'invalid') {
    await removeRunDir(dir);
    return { kind: 'none', invalid: state === 'invalid' };
  }
  if (await isAlive(state.holder, state.boot)) return { kind: 'running', state };
  const recorded = await readExit(dir);
  if (recorded) {
    const output = await readOutput(dir);
    await removeRunDir(dir);
    return { kind: 'ended', state, exit: recorded.state, endedAt: recorded.endedAt, output };
  }
  const orphan = await isAlive(state.game, state.boot);
  if (orphan) killGroup(state.game.pid);
  await removeRunDir(dir);
  return orphan ? { kind: 'orphan', state } : { kind: 'none', invalid: false };
}
