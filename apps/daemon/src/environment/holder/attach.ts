/**
 * Re-adoption: a new daemon connects to the socket of a holder that outlived the previous one. The holder
 * answers with the output it kept (its recent history), then live output; input and signals work as before.
 */
import { closeSync, openSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import type { SpawnCallbacks, SpawnedProcess } from '../spawner';
import { isAlive } from './proc';
import { wireHolder } from './connection';
import type { HolderState } from './run-dir';

/**
 * Connects through /proc/self/fd/<dir fd>/sock: a Unix socket path is limited to 108 bytes, and a data
 * directory plus a 64-character server id can be longer.
 */
function connectIn(dir: string): Promise<Socket> {
  const fd = openSync(dir, 'r');
  return new Promise<Socket>((resolve, reject) => {
    const socket = connect(`/proc/self/fd/${fd}/sock`);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  }).finally(() => closeSync(fd));
}

export async function attachHolder(
  dir: string,
  state: HolderState,
  callbacks: SpawnCallbacks,
): Promise<SpawnedProcess> {
  const socket = await connectIn(dir);
  const link = {
    input: socket,
    output: socket,
    dir,
    holder: state.holder,
    game: state.game,
    boot: state.boot,
  };
  const newline = state.mode === 'tty' ? '\r' : '\n';
  return wireHolder({ ...link, newline, disconnect: () => socket.destroy() }, callbacks);
}

/** A finishing holder writes two small files and exits: this long is more than enough (polled, not slept). */
const FINISH_MS = 5_000;

/** Waits (bounded) for the holder of `state` to end; true once it has. */
export async function holderEnds(state: HolderState): Promise<boolean> {
  const deadline = Date.now() + FINISH_MS;
  while (await isAlive(state.holder, state.boot)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
