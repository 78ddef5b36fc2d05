/**
 * `<dataDir>/hearth.pid`: written by `hearth start`, read by `hearth restore`, which must not swap a database
 * and keys under a running panel (docs/backups.md § The panel's own data). A pid file rather than trying to bind
 * the web port: the port can be held by something else, or changed in the config since the panel started.
 * A file left by a killed panel names a process that is gone and is ignored.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const pidFilePath = (dataDir: string) => join(dataDir, 'hearth.pid');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user — still a running process.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a panel running on this data folder, or null. */
export function runningPanelPid(dataDir: string): number | null {
  let text: string;
  try {
    text = readFileSync(pidFilePath(dataDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  return alive(pid) ? pid : null;
}

/** Writes this process's pid (whole, by rename) and removes it at exit if it is still ours. */
export function holdPidFile(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = pidFilePath(dataDir);
  const temp = `${path}.${process.pid}`;
  writeFileSync(temp, `${process.pid}\n`, { mode: 0o644 });
  renameSync(temp, path);
  process.once('exit', () => {
    try {
      if (readFileSync(path, 'utf8').trim() === String(process.pid)) rmSync(path, { force: true });
    } catch {
      // Already gone (removed by hand): nothing to clean up.
    }
  });
}
