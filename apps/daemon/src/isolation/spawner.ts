/**
 * The isolation decorator for any {@link Spawner} (applied in environment/factory.ts): before each process of a
 * standard/tty server (main run, install/pre/post `command` steps, task `command` operations) the server's folder
 * is handed to its ids, and the process spec is rewritten into the isolation chain of wrap.ts. Nothing is killed
 * here: whether something of the server still runs is the holder's to decide (docs/daemon.md § Supervision). Only argv and env
 * change, so it composes with whatever spawner runs the result.
 */
import { statSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { AppError } from '@hearth/contract';
import type { SpawnCallbacks, SpawnedProcess, Spawner } from '../environment/spawner';
import type { ServerIds } from './ids';
import { signalServerProcess } from './ns-target';
import { handFolderTo } from './ownership';
import { resolveCommand } from './resolve-command';
import type { IsolationRuntime } from './runtime';
import { baseEnvironment, wrapSpec, type HiddenPath } from './wrap';

export interface IsolationWiring {
  runtime: IsolationRuntime;
  /** The server's folder. */
  root: string;
  /** The server's ids (read at each spawn: allocated by the manager). */
  ids: () => ServerIds | null;
}

/** The hidden paths that exist now (bwrap can only mount over something that is there). */
function existingHidden(paths: string[]): HiddenPath[] {
  return paths.flatMap((path) => {
    const info = statSync(path, { throwIfNoEntry: false });
    return info ? [{ path, dir: info.isDirectory() }] : [];
  });
}

const signalNames = new Map(Object.entries(osConstants.signals).map(([name, num]) => [num, name]));

/**
 * bwrap reports a game killed by signal N as exit code 128 + N; shown as the signal, as the docker environment
 * does (docs/daemon.md), so a crash reads "signal SIGSEGV" whichever way the server runs.
 */
function signalExits(callbacks: SpawnCallbacks): SpawnCallbacks {
  return {
    output: (text) => callbacks.output(text),
    exit: (code, signal) => {
      const name = signal === null && code !== null && code > 128 ? signalNames.get(code - 128) : undefined;
      if (name) callbacks.exit(null, name);
      else callbacks.exit(code, signal);
    },
  };
}

/** Signals go to the game inside the sandbox, not to bwrap (ns-target.ts); everything else passes through. */
function signalInside(proc: SpawnedProcess): SpawnedProcess {
  const signal = (sig: NodeJS.Signals | number): void => {
    void signalServerProcess(proc.pid, sig).catch(() => proc.signal(sig));
  };
  return new Proxy(proc, {
    get(target, key) {
      if (key === 'signal') return signal;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export function isolatedSpawner(inner: Spawner, tty: boolean, wiring: IsolationWiring): Spawner {
  const { runtime } = wiring;
  if (runtime.mode === 'none') return inner;
  return async (spec, callbacks) => {
    const ids = runtime.switchIds ? wiring.ids() : null;
    if (runtime.switchIds) {
      if (!ids) throw new AppError('ErrServerStartFailed', { reason: 'the server has no uid of its own' });
      await handFolderTo(wiring.root, ids);
    }
    const baseEnv = baseEnvironment(process.env, tty);
    const command = await resolveCommand(spec.command, spec.cwd, spec.env.PATH ?? baseEnv.PATH ?? '');
    const wrapped = wrapSpec(
      { ...spec, command },
      {
        env: runtime.env,
        bwrap: runtime.bwrap,
        setpriv: runtime.switchIds ? runtime.setpriv : null,
        ids,
        folder: wiring.root,
        hidden: runtime.bwrap ? existingHidden(runtime.hidden) : [],
        baseEnv,
      },
    );
    if (!runtime.bwrap) return inner(wrapped, callbacks);
    return signalInside(await inner(wrapped, signalExits(callbacks)));
  };
}
