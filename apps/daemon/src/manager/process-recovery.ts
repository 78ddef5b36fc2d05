/**
 * Daemon boot, standard/tty part (docs/daemon.md § Supervision): each server whose holder outlived the
 * previous daemon (killed, crashed, upgraded) is re-adopted — console, input and stats resume, the same
 * process, never a second copy — or has the exit it made meanwhile reported. Run directories of servers that
 * no longer exist (or are docker servers now) have their process killed and are removed; those of servers
 * whose definition could not be read are left alone, so a broken file never stops a running game.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { serverIdSchema } from '@hearth/contract';
import { holderEnds } from '../environment/holder/attach';
import { isAlive } from '../environment/holder/proc';
import { readState, removeRunDir } from '../environment/holder/run-dir';
import { killGroup } from '../environment/spawner';
import type { Server } from '../server/server';

const isProcess = (server: Server) => server.getDefinition().environment.type !== 'docker';

/**
 * Kills what a run directory's record names and removes the directory once the holder has ended: the holder
 * writes the exit record (temporary name + rename) into that directory, and a removal racing that write would
 * leave the directory behind.
 */
async function endRun(dir: string): Promise<boolean> {
  const state = await readState(dir).catch(() => null);
  let killed = false;
  if (state && state !== 'invalid' && (await isAlive(state.game, state.boot))) {
    killGroup(state.game.pid);
    killed = true;
    await holderEnds(state);
  }
  await removeRunDir(dir);
  return killed;
}

async function runDirNames(runRoot: string): Promise<string[]> {
  const names = await readdir(runRoot).catch(() => []);
  return names.filter((name) => serverIdSchema.safeParse(name).success);
}

/** `storedIds`: every definition file present, readable or not. */
export async function recoverProcesses(
  servers: Server[],
  storedIds: string[],
  runRoot: string,
  logger: Logger,
): Promise<void> {
  for (const server of servers.filter(isProcess)) {
    try {
      if (await server.recover()) logger.info({ id: server.id }, 're-adopted the server process');
    } catch (err) {
      logger.warn({ err, id: server.id }, 'cannot re-adopt the server process');
    }
  }
  const adoptable = new Set(servers.filter(isProcess).map((s) => s.id));
  const loaded = new Set(servers.map((s) => s.id));
  const unreadable = new Set(storedIds.filter((id) => !loaded.has(id)));
  for (const id of await runDirNames(runRoot)) {
    if (adoptable.has(id) || unreadable.has(id)) continue;
    try {
      if (await endRun(join(runRoot, id))) logger.info({ id }, 'killed the process of a server that is gone');
    } catch (err) {
      logger.warn({ err, id }, 'cannot clean up a leftover run directory');
    }
  }
}
