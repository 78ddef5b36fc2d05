/**
 * Which isolation this daemon can give standard/tty servers, decided once at start (docs/security.md "Isolation
 * model"): as root, each server under its own uid/gid (setpriv), inside bubblewrap when it is installed and works;
 * not root, bubblewrap alone if unprivileged user namespaces allow it, else nothing. A root daemon that cannot
 * drop privileges refuses to start rather than run a game as root.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import type { IsolationMode } from '@hearth/contract';
import type { DaemonConfig } from '../config/schema';
import type { IdRange } from './ids';
import { bwrapArgs, setprivArgs } from './wrap';

export const BWRAP = '/usr/bin/bwrap';

export interface IsolationRuntime {
  mode: IsolationMode;
  /** Each server gets its own uid/gid (the daemon is root). */
  switchIds: boolean;
  /** bubblewrap's path when servers are wrapped in it. */
  bwrap: string | null;
  /** setpriv's path when ids are switched. */
  setpriv: string | null;
  /** env(1): starts the chain with an empty environment (the daemon's own variables never reach a game). */
  env: string;
  range: IdRange;
  /** Absolute paths a bubblewrap sandbox hides (only those that exist when a process starts are masked). */
  hidden: string[];
}

/** A start-time refusal: one readable line, like a configuration error. */
export class IsolationError extends Error {
  override name = 'IsolationError';
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false; // absent or not executable
  }
}

function findTool(name: string): string | null {
  const dirs = [
    ...(process.env.PATH ?? '').split(delimiter).filter(Boolean),
    '/usr/bin',
    '/bin',
    '/usr/sbin',
  ];
  return dirs.map((dir) => join(dir, name)).find(executable) ?? null;
}

/** Runs the real chain once with `/bin/true` (a few ms, at start only); null when it worked, else why not. */
function probe(command: string, args: string[]): string | null {
  try {
    execFileSync(command, args, { timeout: 10_000, env: {}, stdio: ['ignore', 'ignore', 'pipe'] });
    return null;
  } catch (err) {
    const { stderr } = err as { stderr?: Buffer };
    const text = stderr ? stderr.toString('utf8').trim() : '';
    return text.split('\n')[0] || (err as Error).message;
  }
}

/** Hearth's own paths a sandbox never shows: the data dirs, the panel's data under `hearth start`, /etc/hearth. */
export function hiddenPathsOf(config: DaemonConfig): string[] {
  const paths = [
    config.dataDir,
    config.serversDir ?? join(config.dataDir, 'servers'),
    '/etc/hearth',
    '/var/lib/hearth',
    ...config.isolation.hiddenPaths,
  ].map((p) => resolve(p));
  return [...new Set(paths)].filter((p) => p !== '/');
}

export interface DetectedIsolation {
  runtime: IsolationRuntime;
  /** The one line the daemon logs at start. */
  line: string;
  level: 'info' | 'warn';
}

export function detectIsolation(config: DaemonConfig, uid = process.getuid?.() ?? 0): DetectedIsolation {
  const { bubblewrap } = config.isolation;
  const range: IdRange = config.isolation;
  const env = findTool('env') ?? '/usr/bin/env';
  const root = uid === 0;
  const setpriv = root ? findTool('setpriv') : null;
  if (root && !setpriv) {
    throw new IsolationError(
      'isolation: the daemon runs as root but setpriv (util-linux) is missing, so servers would run as root; install util-linux',
    );
  }
  const base = { env, range, hidden: hiddenPathsOf(config), switchIds: root, setpriv };
  const probeIds = { uid: range.idRangeStart, gid: range.idRangeStart };
  const tail = root && setpriv ? [setpriv, ...setprivArgs(probeIds), '/bin/true'] : ['/bin/true'];
  let why = bubblewrap === 'off' ? 'isolation.bubblewrap is off' : `${BWRAP} is not installed`;
  if (bubblewrap !== 'off' && executable(BWRAP)) {
    const failed = probe(BWRAP, [...bwrapArgs([], null, '/'), ...tail]);
    if (!failed) {
      const runtime: IsolationRuntime = {
        ...base,
        bwrap: BWRAP,
        mode: root ? 'uid-bubblewrap' : 'bubblewrap',
      };
      return root
        ? {
            runtime,
            level: 'info',
            line: `isolation: uid-bubblewrap — each standard/tty server runs under its own uid/gid (${range.idRangeStart}–${range.idRangeEnd}) in a bubblewrap sandbox`,
          }
        : {
            runtime,
            level: 'warn',
            line: `isolation: bubblewrap — servers run as uid ${uid} like the daemon (not root: no uid per server), in a bubblewrap sandbox`,
          };
    }
    why = `bubblewrap did not work: ${failed}`;
  }
  if (bubblewrap === 'required') {
    throw new IsolationError(`isolation: isolation.bubblewrap is 'required' but ${why}`);
  }
  if (root && setpriv) {
    const failed = probe(setpriv, tail.slice(1));
    if (failed)
      throw new IsolationError(`isolation: setpriv cannot switch to uid ${probeIds.uid}: ${failed}`);
    return {
      runtime: { ...base, bwrap: null, mode: 'uid' },
      level: 'info',
      line: `isolation: uid — each standard/tty server runs under its own uid/gid (${range.idRangeStart}–${range.idRangeEnd}); no bubblewrap (${why})`,
    };
  }
  return {
    runtime: { ...base, bwrap: null, mode: 'none' },
    level: 'warn',
    line: `isolation: none — servers run as uid ${uid} like the daemon (not root: no uid per server; ${why})`,
  };
}
