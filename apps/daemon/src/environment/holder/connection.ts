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
  holder: ProcRef;
  game: ProcRef;
  boot: string;
  newline: string;
  /** Closes the connection without stopping anything (see {@link SpawnedProcess.release}). */
  disconnect(): void;
}

/** SIGKILL as the exit of a run whose holder closed the connection without recording one. */
const LOST: ExitState = { code: null, signal: 'SIGKILL' };

/**
 * How the run ended: the holder's record (written before it closes the connection). Without one, either the
 * holder was killed — then its process is killed too, so it never runs on unsupervised — or the holder lives and
 * only this connection was lost (another connection took it over): the process is left alone, and its record
 * still refuses a second copy.
 */
async function endOf(link: HolderLink): Promise<{ state: ExitState; keepRecord: boolean }> {
  const recorded = await readExit(link.dir);
  if (recorded) return { state: recorded.state, keepRecord: false };
  if (await isAlive(link.holder, link.boot)) return { state: LOST, keepRecord: true };
  if (await isAlive(link.game, link.boot)) killGroup(link.game.pid);
  return { state: LOST, keepRecord: false };
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
      .catch(() => ({ state: LOST, keepRecord: false }))
      .then(async ({ state, keepRecord }) => {
        if (!keepRecord) await removeRunDir(link.dir).catch(() => undefined);
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
