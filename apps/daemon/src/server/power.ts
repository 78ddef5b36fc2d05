/**
 * Power actions. `beginX` checks preconditions and takes the lock synchronously — so the API can
 * refuse at once or answer 202 — and returns the runner that does the work. Outcomes (docs/daemon.md):
 * anything but kill while installing → ErrServerInstalling; then another action in progress → ErrServerBusy;
 * then start while running → ErrServerRunning, stop/kill while stopped → no-op; kill is always allowed.
 */
import { AppError, isAppError, stopSettingOf } from '@hearth/contract';
import type { DaemonPhase } from '@hearth/contract/daemon-messages';
import { mkdir } from 'node:fs/promises';
import { assertRunnable, runProcessors } from '../processors';
import { argvOf, buildProcessSpec } from './process-spec';
import type { Server } from './server';
import { withTimeout } from './wait';

export type PowerAction = 'start' | 'stop' | 'restart' | 'kill' | 'install';
export type Runner = () => Promise<void>;

const noop: Runner = async () => undefined;
const TIMED_OUT = Symbol('timed out');

function guarded(release: () => void, work: Runner): Runner {
  return async () => {
    try {
      await work();
    } finally {
      release();
    }
  };
}

/** Pre hooks, then the process. `automatic` restarts keep the crash-loop counter. */
async function doStart(server: Server, automatic: boolean): Promise<void> {
  server.machine.beginStarting(); // also calls off a pending automatic restart
  if (!automatic) server.machine.setUnstableRuns(0);
  try {
    await spawnMain(server, automatic);
  } catch (err) {
    server.machine.startFailed();
    throw err;
  }
  server.machine.markStarted();
}

async function spawnMain(server: Server, automatic: boolean): Promise<void> {
  const definition = server.getDefinition();
  if (automatic) server.say('power.startingAuto', {});
  else server.say('power.starting', {});
  await runPhase(server, 'preStart', definition.run.pre);
  const spec = await buildProcessSpec(
    definition.run.command,
    definition,
    server.sandbox,
    server.substitutions(),
  );
  server.machine.spawning();
  try {
    await server.environment().start(spec);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    server.say('power.startFailed', { reason });
    throw isAppError(err) ? err : new AppError('ErrServerStartFailed', { reason }, { cause: err });
  }
}

async function doStop(server: Server): Promise<void> {
  const setting = stopSettingOf(server.getDefinition().run);
  server.machine.requestExit();
  if (setting.type === 'signal') server.say('power.stoppingSignal', { signal: setting.value });
  else server.say('power.stoppingCommand', { command: setting.value });
  const exited = server.waitForExit();
  await server.environment().stop(setting);
  const timeoutMs = server.settings.stopTimeoutMs;
  if ((await withTimeout(exited, timeoutMs, TIMED_OUT)) === TIMED_OUT) {
    server.say('power.stopTimeout', { seconds: timeoutMs / 1000 });
    await server.killProcess();
    await exited;
  }
}

/** Runs a processor list; `abort` (a user's kill) ends it. Install passes its own, made before any await. */
export async function runPhase(
  server: Server,
  phase: DaemonPhase,
  steps: Parameters<typeof runProcessors>[1],
  abort = new AbortController(),
): Promise<void> {
  if (steps.length === 0) return;
  server.machine.enterPhase(abort);
  try {
    await runProcessors(phase, steps, server.substitutions(), server.processorContext(abort.signal));
  } finally {
    server.machine.leavePhase(abort);
  }
}

/** A step this daemon cannot run refuses the whole phase; the console says which, for the user watching it. */
function assertRunnableLogged(
  server: Server,
  steps: Parameters<typeof assertRunnable>[0],
  phase: DaemonPhase,
): void {
  try {
    assertRunnable(steps);
  } catch (err) {
    server.say('phase.refused', { phase, reason: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}

function checkNotInstalling(server: Server): void {
  if (server.installing) throw new AppError('ErrServerInstalling');
}

/**
 * Another action in progress wins over the server's state (docs/daemon.md outcomes table): a start during a
 * stop is ErrServerBusy, not ErrServerRunning, and a stop during a start's pre hooks is not a silent no-op.
 */
function checkIdle(server: Server): void {
  checkNotInstalling(server);
  const holder = server.lock.held();
  if (holder === 'install') throw new AppError('ErrServerInstalling');
  // The folder is streaming to another node (transfer/export.ts): no start may change it meanwhile.
  if (holder === 'transfer') throw new AppError('ErrTransferInProgress');
  if (holder) throw new AppError('ErrServerBusy', { action: holder });
}

export function beginStart(server: Server, automatic = false): Runner {
  checkIdle(server);
  if (server.isRunning()) throw new AppError('ErrServerRunning');
  const definition = server.getDefinition();
  const { run } = definition;
  if (argvOf(run.command, definition, server.substitutions()).length === 0) {
    throw new AppError('ErrCommandSyntax', { reason: 'the command is empty' });
  }
  assertRunnableLogged(server, run.pre, 'start');
  return guarded(server.lock.acquire('start'), () => doStart(server, automatic));
}

export function beginStop(server: Server): Runner {
  checkIdle(server);
  if (!server.isRunning()) {
    server.machine.cancelRestart(); // a stop also calls off a pending automatic restart
    return noop;
  }
  return guarded(server.lock.acquire('stop'), () => doStop(server));
}

export function beginRestart(server: Server): Runner {
  checkNotInstalling(server);
  return guarded(server.lock.acquire('restart'), async () => {
    if (server.isRunning()) await doStop(server);
    await doStart(server, false);
  });
}

/** Kill bypasses the lock: it ends the process tree now, or aborts a running install/pre phase. */
export function beginKill(server: Server): Runner {
  return async () => {
    server.machine.cancelRestart();
    if (server.machine.abortPhase()) server.say('power.killingPhase', {});
    if (!server.isRunning()) return server.killProcess();
    server.machine.requestExit();
    server.say('power.killing', {});
    const exited = server.waitForExit();
    await server.killProcess();
    await exited;
  };
}

export function beginInstall(server: Server): Runner {
  checkNotInstalling(server);
  const steps = server.getDefinition().install;
  assertRunnableLogged(server, steps, 'install');
  const release = server.lock.acquire('install');
  server.machine.beginInstalling(); // emits the status; calls off a pending automatic restart
  const abort = new AbortController(); // exists from the first moment, so an early kill is not lost
  server.machine.enterPhase(abort);
  return guarded(release, async () => {
    try {
      if (server.isRunning()) await doStop(server);
      await mkdir(server.sandbox.root, { recursive: true });
      server.say('install.started', {});
      await runPhase(server, 'install', steps, abort);
      await server.markInstalled();
      server.say('install.finished', {});
    } catch (err) {
      server.say('install.failed', { reason: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      server.machine.leavePhase(abort);
      server.machine.endInstalling(); // emits the status
    }
  });
}

export const beginners: Record<PowerAction, (server: Server) => Runner> = {
  start: (s) => beginStart(s),
  stop: beginStop,
  restart: beginRestart,
  kill: beginKill,
  install: beginInstall,
};

/** Daemon shutdown: stop with a bounded wait, then kill; nothing is left running. */
export async function shutdownServer(server: Server, timeoutMs: number): Promise<void> {
  server.machine.cancelRestart();
  server.machine.abortPhase();
  if (server.installing) await server.killProcess();
  if (server.isRunning()) {
    server.machine.requestExit();
    const exited = server.waitForExit();
    await server.environment().stop(stopSettingOf(server.getDefinition().run));
    if ((await withTimeout(exited, timeoutMs, TIMED_OUT)) === TIMED_OUT) await server.killProcess();
  }
  await server.destroy();
}
