/**
 * Every benchmark's child processes, and the promise that none outlives the benchmark (docs/performance.md
 * § Running the benchmarks). Importing this module tags the process: `HEARTH_BENCH_TAG` goes into its
 * environment, so every child, grandchild and the games a benchmark's daemon starts (their holders leave the
 * daemon's session on purpose, docs/daemon.md § Supervision) carry it in /proc/<pid>/environ. On exit, on
 * SIGINT/SIGTERM, on an uncaught error and when the run exceeds `HEARTH_BENCH_TIMEOUT_S` (default 3600), every
 * tagged process is killed; a signal, an error, a timeout or a child dying unexpectedly ends the run non-zero.
 */
import {
  fork as nodeFork,
  spawn as nodeSpawn,
  type ChildProcess,
  type ForkOptions,
  type SpawnOptions,
} from 'node:child_process';
import type { Interface } from 'node:readline';
import { TAG_VARIABLE, taggedPids as taggedWith } from './tagged';

export { TAG_VARIABLE };
/** A caller (the cleanup test) may choose the tag; otherwise one per benchmark process. */
export const BENCH_TAG = process.env[TAG_VARIABLE] || `hearth-bench-${process.pid}-${Date.now()}`;
process.env[TAG_VARIABLE] = BENCH_TAG;

/** The processes carrying this benchmark's tag, except this one. */
export const taggedPids = (): number[] => taggedWith(BENCH_TAG);

const expected = new WeakSet<ChildProcess>();
let ending = false;

/** Kills every tagged process, synchronously (it also runs from the 'exit' event). */
export function killAll(): void {
  // Twice: a child may have started another between the scan and the kill.
  for (let round = 0; round < 2; round += 1) {
    for (const pid of taggedPids()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}

/** Ends the run: kills every child and exits with `code` (non-zero unless the run succeeded). */
export function abort(reason: string, code = 1): never {
  ending = true;
  console.error(`bench: ${reason}; stopping every child process`);
  killAll();
  process.exit(code);
}

process.once('exit', () => {
  ending = true;
  killAll();
});
process.once('SIGINT', () => abort('interrupted (SIGINT)', 130));
process.once('SIGTERM', () => abort('terminated (SIGTERM)', 143));
process.on('uncaughtException', (err) => abort(`failed: ${err.stack ?? String(err)}`));
process.on('unhandledRejection', (err) =>
  abort(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
);
const timeoutS = Number(process.env.HEARTH_BENCH_TIMEOUT_S ?? 3600);
setTimeout(() => abort(`timed out after ${timeoutS} s`), timeoutS * 1000).unref();

/** A child that dies while the benchmark still needs it would leave the run waiting forever: fail instead. */
function watch(child: ChildProcess, name: string): ChildProcess {
  child.once('exit', (code, signal) => {
    if (ending || expected.has(child) || code === 0) return;
    abort(`${name} exited unexpectedly (${signal ?? `code ${code}`})`);
  });
  return child;
}

export function spawn(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  return watch(nodeSpawn(command, args, options), `${command} ${args.join(' ')}`.slice(0, 160));
}

export function fork(module: string, args: string[], options: ForkOptions = {}): ChildProcess {
  return watch(nodeFork(module, args, options), module);
}

/** Stops a child on purpose (SIGTERM, or `signal`) and resolves once it has exited. */
export async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  expected.add(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  await exited;
}

/** Marks a child whose exit (any code) is part of the plan, e.g. a command the benchmark waits for. */
export function expectExit(child: ChildProcess): ChildProcess {
  expected.add(child);
  return child;
}

/** Reads a child's output lines until one starts with `prefix`; resolves with the rest of it. */
export function lineFrom(lines: Interface, prefix: string): Promise<string> {
  return new Promise((resolve) => {
    const onLine = (line: string) => {
      if (!line.startsWith(prefix)) return;
      lines.off('line', onLine);
      resolve(line.slice(prefix.length));
    };
    lines.on('line', onLine);
  });
}
