/**
 * One attached container: its TTY output decoded into the console, its stdin, an `oom` event watch, and its
 * exit (code, signal, OOM). Every engine stream opened here is destroyed in `finally` once the container
 * ends (an open attach or events stream would keep the daemon process alive).
 */
import { constants } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import type { Duplex, Readable } from 'node:stream';
import type Docker from 'dockerode';
import type { DaemonSay } from '@hearth/contract/daemon-messages';
import type { ExitState } from '../environment';

export interface Session {
  readonly containerId: string;
  write(text: string): void;
  /** Resolves after all output was delivered and the streams were closed. */
  readonly exited: Promise<ExitState & { oomKilled: boolean }>;
}

/** Docker reports a signal death as 128 + n, like a shell. */
export function exitStateOf(code: number): ExitState {
  if (code > 128 && code <= 128 + 64) {
    const name = Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0];
    if (name) return { code: null, signal: name };
  }
  return { code, signal: null };
}

function pipeOutput(stream: Readable, output: (text: string) => void): Promise<void> {
  const decoder = new StringDecoder('utf8');
  return new Promise((resolve) => {
    stream.on('data', (chunk: Buffer) => {
      const text = decoder.write(chunk);
      if (text) output(text);
    });
    const done = () => {
      const rest = decoder.end();
      if (rest) output(rest);
      resolve();
    };
    stream.once('end', done);
    stream.once('close', done);
    stream.once('error', done);
  });
}

async function watchOom(docker: Docker, id: string, onOom: () => void): Promise<Readable> {
  const events = (await docker.getEvents({
    filters: { container: [id], event: ['oom'] },
  })) as unknown as Readable;
  events.on('data', () => onOom());
  events.on('error', () => undefined); // destroyed in finally; an error just ends the watch
  return events;
}

/**
 * Attaches to `container` (created or running). `start` runs after the attach, so no early output is lost;
 * re-attaching after a daemon restart passes no `start`.
 */
export async function openSession(
  docker: Docker,
  container: Docker.Container,
  opts: {
    stdin: boolean;
    output: (text: string) => void;
    say: DaemonSay;
    start?: () => Promise<void>;
  },
): Promise<Session> {
  const stream = (await container.attach({
    stream: true,
    stdin: opts.stdin,
    stdout: true,
    stderr: true,
    hijack: opts.stdin,
  })) as Duplex;
  stream.on('error', () => undefined); // a write after the container ended; its exit is reported separately
  let oom = false;
  const events = await watchOom(docker, container.id, () => {
    oom = true;
    opts.say('docker.outOfMemory', {});
  }).catch(() => null);
  const drained = pipeOutput(stream, opts.output);
  const finish = async () => {
    try {
      const { StatusCode } = (await container.wait()) as { StatusCode: number };
      await Promise.race([drained, new Promise((r) => setTimeout(r, 2_000))]);
      const info = await container.inspect().catch(() => null);
      return { ...exitStateOf(StatusCode), oomKilled: oom || info?.State.OOMKilled === true };
    } finally {
      stream.destroy();
      events?.destroy();
    }
  };
  try {
    await opts.start?.();
  } catch (err) {
    stream.destroy();
    events?.destroy();
    throw err;
  }
  return {
    containerId: container.id,
    write: (text) => void stream.write(text),
    exited: finish(),
  };
}
