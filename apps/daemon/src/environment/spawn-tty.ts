/** `tty` environment processes: node-pty (terminal size set, ANSI passed through as is). */
import { accessSync, constants as fsConstants } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import pty from 'node-pty';
import { killGroup, type Spawner } from './spawner';

export const TTY_COLUMNS = 120;
export const TTY_ROWS = 40;

function executable(path: string): boolean {
  try {
    accessSync(path, fsConstants.X_OK);
    return true;
  } catch {
    return false; // not found or not executable: the caller reports ENOENT
  }
}

/** node-pty reports a failed exec as console text plus exit 1; find the file first to fail like spawn does. */
function findExecutable(command: string, cwd: string, pathVar: string): string {
  const candidates = command.includes('/')
    ? [isAbsolute(command) ? command : resolve(cwd, command)]
    : pathVar
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, command));
  const found = candidates.find(executable);
  if (!found) throw Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT' });
  return found;
}

const signalNames = new Map(Object.entries(osConstants.signals).map(([name, num]) => [num, name]));

export const spawnTty: Spawner = async (spec, callbacks) => {
  const env = { ...process.env, TERM: 'xterm-256color', ...spec.env } as Record<string, string>;
  const file = findExecutable(spec.command, spec.cwd, env.PATH ?? '');
  const term = pty.spawn(file, spec.args, {
    name: 'xterm-256color',
    cols: TTY_COLUMNS,
    rows: TTY_ROWS,
    cwd: spec.cwd,
    env,
  });
  term.onData((text) => callbacks.output(text));
  term.onExit(({ exitCode, signal }) => {
    killGroup(term.pid); // forkpty made it a session leader: its group holds the whole tree
    const name = signal ? (signalNames.get(signal) ?? `SIG${signal}`) : null;
    callbacks.exit(name ? null : exitCode, name);
  });
  return {
    pid: term.pid,
    newline: '\r',
    write: (text) => term.write(text),
    signal: (sig) => {
      const name = typeof sig === 'number' ? signalNames.get(sig) : sig;
      process.kill(term.pid, name ?? sig);
    },
  };
};
