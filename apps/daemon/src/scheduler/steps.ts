/**
 * One task operation on a server: a runtime step (console command, power action, sleep, wait) or an install
 * processor. Power steps go through the same begin/lock checks as the API, and wait until done.
 */
import {
  AppError,
  isAppError,
  isKnownProcessor,
  isRuntimeStepType,
  type RuntimeStep,
  type TaskOperation,
} from '@hearth/contract';
import { runBackupStep } from '../backups/task-step';
import { dispatch } from '../processors';
import { beginKill, beginRestart, beginStart, beginStop } from '../server/power';
import type { Server } from '../server/server';
import { substituteDeep } from '../server/variables';

const TIMED_OUT = Symbol('timed out');

/** Resolves after `ms`, or rejects at once when `signal` aborts (daemon shutdown, server deleted). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function startUnlessRunning(server: Server): Promise<void> {
  try {
    await beginStart(server)();
  } catch (err) {
    // A task that starts an already running server has nothing to do; it is not a failure.
    if (!(isAppError(err) && err.code === 'ErrServerRunning')) throw err;
    server.say('power.alreadyRunning', {});
  }
}

async function waitStopped(server: Server, timeoutSeconds: number, signal: AbortSignal): Promise<void> {
  if (!server.isRunning()) return;
  const done = new AbortController(); // ends the timeout once the server has stopped
  const onAbort = () => done.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const timeout = sleep(timeoutSeconds * 1000, done.signal).then(() => TIMED_OUT);
    const outcome = await Promise.race([server.waitForExit(), timeout]);
    if (outcome === TIMED_OUT) throw new Error(`the server was still running after ${timeoutSeconds} s`);
  } finally {
    done.abort();
    signal.removeEventListener('abort', onAbort);
  }
}

async function runRuntimeStep(server: Server, step: RuntimeStep, signal: AbortSignal): Promise<void> {
  switch (step.type) {
    case 'console':
      return server.sendCommand(step.command);
    case 'start':
      return startUnlessRunning(server);
    case 'stop':
      return beginStop(server)();
    case 'restart':
      return beginRestart(server)();
    case 'kill':
      return beginKill(server)();
    case 'sleep':
      return sleep(step.seconds * 1000, signal);
    case 'wait':
      return waitStopped(server, step.timeoutSeconds, signal);
    case 'backup':
      return runBackupStep(server, signal);
  }
}

/** Runs one operation with `${}` variables substituted; throws with a readable reason on failure. */
export async function runOperation(server: Server, raw: TaskOperation, signal: AbortSignal): Promise<void> {
  const step = substituteDeep(raw, server.substitutions());
  if (isRuntimeStepType(step.type)) return runRuntimeStep(server, step as RuntimeStep, signal);
  if (!isKnownProcessor(step)) throw new AppError('ErrUnknownProcessor', { type: step.type });
  return dispatch(step, server.processorContext(signal));
}

/** Refuses a list holding a type this daemon cannot run, before it is stored. */
export function assertOperationsRunnable(operations: TaskOperation[]): void {
  const unknown = operations.find((op) => !isRuntimeStepType(op.type) && !isKnownProcessor(op));
  if (unknown) throw new AppError('ErrUnknownProcessor', { type: unknown.type });
}

/** `console: say hi`, `sleep 300 s`, `writefile` — for the console trail. */
export function describeOperation(op: TaskOperation): string {
  if (op.type === 'console' && 'command' in op) return `console: ${String(op.command)}`;
  if (op.type === 'sleep' && 'seconds' in op) return `sleep ${String(op.seconds)} s`;
  return op.type;
}
