/**
 * restic as a child process (docs/adr/0005-backups-restic.md): argv only, never a shell; the password, the
 * repository location and the destination's credentials reach it through files and its environment, never its
 * command line (which other users of the machine can read in /proc). Each run is tied to the daemon's life
 * with `setpriv --pdeathsig KILL` where util-linux has it: a daemon killed mid-backup leaves no restic behind,
 * only a stale lock that the next daemon clears (maintenance.ts).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { resticError } from './restic-errors';

/** How every run reaches the node's repository. */
export interface ResticTarget {
  bin: string;
  /** Global options before the command (`--cache-dir`, `-o sftp.command=…`). */
  globalArgs: readonly string[];
  env: Readonly<Record<string, string>>;
}

export interface RunOptions {
  cwd?: string;
  /** Each JSON line restic prints on stdout (`--json` progress and summaries). */
  onJson?: (message: Record<string, unknown>) => void;
  signal?: AbortSignal;
  /** Exit codes that still count as done (backup: 3 = some files could not be read, the snapshot exists). */
  okCodes?: readonly number[];
}

const SETPRIV = '/usr/bin/setpriv';
const STDERR_KEEP = 64 * 1024;

function launch(target: ResticTarget, args: readonly string[], cwd?: string): ChildProcessWithoutNullStreams {
  const argv = [...target.globalArgs, ...args];
  const [command, commandArgs] = existsSync(SETPRIV)
    ? [SETPRIV, ['--pdeathsig', 'KILL', '--', target.bin, ...argv]]
    : [target.bin, argv];
  return spawn(command, commandArgs, { cwd, env: { ...target.env }, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Collects stderr up to a bound (restic's messages; a flood is cut, not buffered without end). */
function collect(child: ChildProcessWithoutNullStreams): () => string {
  let text = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (text.length < STDERR_KEEP) text += chunk;
  });
  return () => text;
}

function exitOf(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; spawnError?: Error }> {
  return new Promise((resolve) => {
    child.once('error', (err) => resolve({ code: null, spawnError: err }));
    child.once('close', (code) => resolve({ code }));
  });
}

/** Runs restic to its end; stdout's JSON lines go to `onJson`, other lines are returned. */
export async function runRestic(
  target: ResticTarget,
  args: readonly string[],
  options: RunOptions = {},
): Promise<string[]> {
  const child = launch(target, args, options.cwd);
  child.stdin.end();
  const stderr = collect(child);
  const lines: string[] = [];
  const onAbort = () => child.kill('SIGTERM');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const reader = createInterface({ input: child.stdout, crlfDelay: Infinity });
  reader.on('line', (line) => {
    if (options.onJson && line.startsWith('{')) {
      try {
        options.onJson(JSON.parse(line) as Record<string, unknown>);
        return;
      } catch {
        // not JSON after all: kept as text
      }
    }
    lines.push(line);
  });
  const { code, spawnError } = await exitOf(child);
  options.signal?.removeEventListener('abort', onAbort);
  if (spawnError || code === null || (code !== 0 && !(options.okCodes ?? []).includes(code))) {
    throw resticError(stderr(), code, spawnError);
  }
  return lines;
}

/** Runs restic and parses its whole stdout as one JSON document (`snapshots --json`, `forget --json`). */
export async function resticJson(target: ResticTarget, args: readonly string[]): Promise<unknown> {
  const lines = await runRestic(target, args);
  const text = lines.join('\n').trim();
  return text === '' ? null : (JSON.parse(text) as unknown);
}

/** A run whose stdout is streamed to the caller (`dump`); `done` settles when restic has exited. */
export function streamRestic(
  target: ResticTarget,
  args: readonly string[],
): { stdout: NodeJS.ReadableStream; done: Promise<void>; kill: () => void } {
  const child = launch(target, args);
  child.stdin.end();
  const stderr = collect(child);
  const done = exitOf(child).then(({ code, spawnError }) => {
    if (spawnError || code !== 0) throw resticError(stderr(), code, spawnError);
  });
  return { stdout: child.stdout, done, kill: () => child.kill('SIGKILL') };
}
