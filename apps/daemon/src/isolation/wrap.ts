/**
 * The argv transformation that isolates one process (docs/security.md "Isolation model"); pure, so any spawner
 * can run the result. The chain is
 *   env -i -- K=V… [bwrap <sandbox> --] [setpriv <ids> --] <command> <args…>
 * env(1) starts it with only the variables listed (the daemon's own environment, with its secrets, never reaches
 * a game); bubblewrap shows the system read-only, /dev, a fresh /proc, a private /tmp and the server's folder
 * read-write, and masks Hearth's paths; setpriv drops to the server's ids with no groups, no capabilities and
 * no_new_privs. bwrap is not given --die-with-parent: a game must outlive a daemon restart (docs/daemon.md).
 */
import type { ProcessSpec } from '../environment/environment';
import type { ServerIds } from './ids';

export interface HiddenPath {
  path: string;
  /** A folder is covered by an empty tmpfs; a file by /dev/null. */
  dir: boolean;
}

export function setprivArgs(ids: ServerIds): string[] {
  return [
    `--reuid=${ids.uid}`,
    `--regid=${ids.gid}`,
    '--clear-groups',
    '--no-new-privs',
    '--inh-caps=-all',
    '--bounding-set=-all',
    '--',
  ];
}

/**
 * bubblewrap's options up to its `--`. Order matters: later mounts go on top, so the masks come after the
 * read-only root and the server's folder is bound last (it usually lies inside a masked data dir).
 */
export function bwrapArgs(hidden: HiddenPath[], folder: string | null, cwd: string): string[] {
  const masks = [...hidden]
    .sort((a, b) => a.path.length - b.path.length)
    .flatMap((h) => (h.dir ? ['--tmpfs', h.path] : ['--ro-bind', '/dev/null', h.path]));
  return [
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--perms', '1777', '--tmpfs', '/tmp',
    '--unshare-pid',
    '--unshare-ipc',
    ...masks,
    ...(folder ? ['--bind', folder, folder] : []),
    '--chdir', cwd,
    '--',
  ]; // prettier-ignore
}

/** Names env(1) can set: no `=`, no NUL, not empty. */
function settable(name: string, value: string): boolean {
  return name !== '' && !name.includes('=') && !name.includes('\0') && !value.includes('\0');
}

export interface WrapPlan {
  env: string;
  bwrap: string | null;
  setpriv: string | null;
  ids: ServerIds | null;
  /** The server's folder (bound read-write inside bubblewrap). */
  folder: string;
  hidden: HiddenPath[];
  /** Variables every process gets before the definition's own (PATH, locale, time zone, TERM for tty). */
  baseEnv: Record<string, string>;
}

/**
 * `spec.command` must already be resolved to an absolute path (see resolve-command.ts). Whatever else the spec
 * carries (the spawner's run slot) is kept as is.
 */
export function wrapSpec<T extends ProcessSpec>(spec: T, plan: WrapPlan): T {
  const variables = Object.entries({ ...plan.baseEnv, ...spec.env })
    .filter(([name, value]) => settable(name, value))
    .map(([name, value]) => `${name}=${value}`);
  const sandbox = plan.bwrap ? [plan.bwrap, ...bwrapArgs(plan.hidden, plan.folder, spec.cwd)] : [];
  const drop = plan.setpriv && plan.ids ? [plan.setpriv, ...setprivArgs(plan.ids)] : [];
  return {
    ...spec,
    command: plan.env,
    args: ['-i', '--', ...variables, ...sandbox, ...drop, spec.command, ...spec.args],
    env: {},
  };
}

/** The daemon variables a game may see: the search path, locale and time zone, nothing of Hearth's. */
export function baseEnvironment(source: NodeJS.ProcessEnv, tty: boolean): Record<string, string> {
  const keep = ['PATH', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'TZ'];
  const base: Record<string, string> = { PATH: '/usr/local/bin:/usr/bin:/bin' };
  for (const name of keep) {
    const value = source[name];
    if (value !== undefined) base[name] = value;
  }
  if (tty) base.TERM = 'xterm-256color';
  return base;
}
