/**
 * The daemon's end of a holder connection, the same whether the daemon started the holder (its stdio) or
 * re-adopted it (its socket): output in, input out, signals straight to the process, and the end of the run
 * read from the holder's `exit` record once the holder closes the connection (docs/daemon.md § Supervision).
 */
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { yieldWhileReading } from '../read-yield';
import { killGroup, type SpawnCallbacks, type SpawnedProcess } from '../spawner';
import type { ExitState } from '../environment';
import { isAlive, type ProcRef } from './proc';
import { readExit, removeRunDir } from './run-dir';
import { signalServerProcess } from '../../isolation/ns-target';

export interface HolderLink {
  input: Writable;
  output: Readable;
  /** The server's run directory. */
  dir: string;
  game: ProcRef;
  boot: string;
  newline: string;
  /** Closes the connection without stopping anything (see {@link SpawnedProcess.release}). */
  disconnect(): void;
}

/** SIGKILL as the exit of a process whose holder vanished (killed by hand) without recording one. */
const LOST: ExitState = { code: null, signal: 'SIGKILL' };

/** How the run ended: the holder's record, else (holder gone) the process is killed so it never runs on. */
async function endOf(link: HolderLink): Promise<ExitState> {
  const recorded = await readExit(link.dir);
  if (recorded) return recorded.state;
  if (await isAlive(link.game, link.boot)) killGroup(link.game.pid);
  return LOST;
}

export function wireHolder(link: HolderLink, callbacks: SpawnCallbacks): SpawnedProcess {
  let released = false;
  const decoder = new StringDecoder('utf8'); // a code point split across reads is held back, never mangled
  link.output.on('data', (chunk: Buffer) => {
    const text = decoder.write(chunk);
    if (text && !released) callbacks.output(text);
  });
  yieldWhileReading(link.output);
  link.output.on('error', () => undefined); // a reset connection ends like a closed one
  link.input.on('error', () => undefined); // EPIPE after the end is expected; the end is reported separately
  link.output.once('close', () => {
    if (released) return;
    const rest = decoder.end();
    if (rest) callbacks.output(rest);
    void endOf(link)
      .catch((): ExitState => LOST)
      .then(async (state) => {
        await removeRunDir(link.dir).catch(() => undefined);
        callbacks.exit(state.code, state.signal);
      });
  });
  return {
    pid: link.game.pid,
    newline: link.newline,
    write: (text) => void link.input.write(text),
    signal: (sig) => void signalServerProcess(link.game.pid, sig).catch(() => undefined), // the game, also in bwrap
    release: () => {
      released = true;
      link.disconnect();
    },
  };
}
