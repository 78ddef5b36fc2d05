/**
 * Finds a command's file as spawn(2) would, before the isolation chain hides the lookup: a missing program must
 * still refuse the start with `spawn <cmd> ENOENT` (docs/daemon.md environment contract), not start env(1) and
 * end with exit 127. Relative paths are taken from the working directory, bare names from the given PATH.
 */
import { access, constants, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

async function runnableFile(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false; // absent, not executable, or a folder: try the next candidate
  }
}

export async function resolveCommand(command: string, cwd: string, pathVar: string): Promise<string> {
  const candidates = command.includes('/')
    ? [isAbsolute(command) ? command : resolve(cwd, command)]
    : pathVar
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(isAbsolute(dir) ? dir : resolve(cwd, dir), command));
  for (const candidate of candidates) if (await runnableFile(candidate)) return candidate;
  throw Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT', path: command });
}
