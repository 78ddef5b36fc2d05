/**
 * Starts a server process under a new holder (hearth-holder.c): the holder runs in its own session so it
 * outlives the daemon, records the process in the run directory before it may exec, and answers on fd 3
 * with `started <pid> <start time>` or `failed <errno> <what>` (docs/daemon.md § Supervision).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import { AppError } from '@hearth/contract';
import type { Spawner } from '../spawner';
import { holderBinary } from './binary';
import { wireHolder } from './connection';
import { bootId, isAlive, startTimeOf, type ProcRef } from './proc';
import { prepareRunDir, readState, removeRunDir, type HolderMode } from './run-dir';
import type { RunSlot } from './run-slot';

/** Output the holder keeps for the next daemon's console replay (and what it holds while none is attached). */
export const HISTORY_BYTES = 256 * 1024;
export const TTY_COLUMNS = 120;
export const TTY_ROWS = 40;

const errnoNames = new Map(Object.entries(osConstants.errno).map(([name, num]) => [num, name]));

/** Never a second copy: a living holder or process recorded in the run directory refuses the start. */
async function claimRunDir(dir: string): Promise<void> {
  await prepareRunDir(dir);
  const state = await readState(dir);
  if (state && state !== 'invalid') {
    const living = (await isAlive(state.holder, state.boot)) || (await isAlive(state.game, state.boot));
    if (living) throw new AppError('ErrServerRunning');
  }
  await removeRunDir(dir); // a stale record (process gone, or a pid reused since)
  await prepareRunDir(dir);
}

function spawnError(command: string, errno: number, what: string): Error {
  const code = errnoNames.get(errno) ?? `E${errno}`;
  const message =
    what === 'exec' ? `spawn ${command} ${code}` : `the server holder failed (${what}: ${code})`;
  return Object.assign(new Error(message), { code });
}

/** The holder's one-line answer on fd 3. */
function handshake(child: ChildProcess, command: string): Promise<ProcRef> {
  return new Promise((resolve, reject) => {
    let text = '';
    const answer = child.stdio[3] as Readable;
    child.once('error', reject);
    answer.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const line = text.split('\n')[0] ?? '';
      if (!text.includes('\n')) return;
      answer.destroy();
      const [word, first = '', second = ''] = line.split(' ');
      if (word === 'started') resolve({ pid: Number(first), start: Number(second) });
      else reject(spawnError(command, Number(first), second || 'start'));
    });
    answer.once('close', () => reject(new Error('the server holder ended without starting the process')));
  });
}

/** A spawner that starts each process of `slot`'s server under a new holder. */
export function holderSpawner(mode: HolderMode, slot: RunSlot): Spawner {
  return async (spec, callbacks) => {
    const dir = slot.dir;
    const binary = await holderBinary(join(dirname(dir), '.bin')); // no server id holds a dot
    await claimRunDir(dir);
    const env: Record<string, string | undefined> = { ...process.env };
    if (mode === 'tty') env.TERM = 'xterm-256color';
    Object.assign(env, spec.env);
    const args = [mode, slot.role, String(HISTORY_BYTES), String(TTY_COLUMNS), String(TTY_ROWS), spec.cwd];
    const child = spawn(binary, [...args, '--', spec.command, ...spec.args], {
      cwd: dir,
      env,
      stdio: ['pipe', 'pipe', 'ignore', 'pipe'],
      detached: true, // its own session: it lives on when the daemon is gone
    });
    // Taken over before the first await: Node resumes a child's pipes when the child exits (child_process'
    // flushStdio), so a run that ended during the awaits below (a one-off command done in milliseconds on a
    // busy machine) had its output read and its pipe closed with nobody listening, and its end was never
    // reported — the install step waited forever. The stream of ours keeps both until wireHolder reads it.
    const output = new PassThrough();
    if (child.stdout) pipeline(child.stdout, output, () => undefined);
    let game: ProcRef;
    try {
      game = await handshake(child, spec.command);
    } catch (err) {
      await removeRunDir(dir).catch(() => undefined);
      throw err;
    }
    const { stdin, stdout } = child;
    if (!stdin || !stdout) throw new Error('the server holder has no stdio');
    const disconnect = () => {
      stdin.destroy();
      stdout.destroy();
      output.destroy();
      child.unref();
    };
    const newline = mode === 'tty' ? '\r' : '\n';
    const holder = { pid: child.pid ?? 0, start: (await startTimeOf(child.pid ?? 0)) ?? 0 };
    const link = {
      input: stdin,
      output,
      dir,
      holder,
      game,
      boot: await bootId(),
      newline,
      disconnect,
    };
    return wireHolder(link, callbacks);
  };
}
