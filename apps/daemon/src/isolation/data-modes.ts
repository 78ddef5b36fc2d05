/**
 * Modes of Hearth's own files, set at every daemon start (docs/security.md "Isolation model"): a server's uid
 * must traverse to its folder but read and list nothing else of Hearth's. The data dir and the servers dir are
 * 0711 (search only); everything else directly in the data dir — the panel's keys/, hearth.db and config.json
 * under `hearth start`, the SFTP host key, run records — loses every group/other bit; definition and task
 * files are 0600; each server folder is 0700 (owned by the server, see ownership.ts).
 */
import { constants } from 'node:fs';
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { DaemonConfig } from '../config/schema';

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code ?? '';

/** chmod unless already so; a file that vanished is fine, a refusal (not our file) is logged. */
async function setMode(path: string, mode: (current: number) => number, log: Logger): Promise<void> {
  try {
    const info = await lstat(path);
    if (info.isSymbolicLink()) return; // a link's mode means nothing; its target is not ours to change
    const current = info.mode & 0o7777;
    const wanted = mode(current);
    if (wanted !== current) await chmod(path, wanted);
  } catch (err) {
    if (codeOf(err) === 'ENOENT') return;
    log.warn({ path, err: (err as Error).message }, 'isolation: cannot set the mode of a Hearth path');
  }
}

const privateMode = (current: number) => current & 0o700;

/** Ancestors of `path` (not itself) that other users cannot search: a server could not reach its folder. */
async function unsearchableAncestors(path: string, skip: Set<string>): Promise<string[]> {
  const found: string[] = [];
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (!skip.has(dir)) {
      const info = await lstat(dir).catch(() => null);
      if (info?.isDirectory() && (info.mode & constants.S_IXOTH) === 0) found.push(dir);
    }
    if (dir === dirname(dir)) return found;
  }
}

export async function protectDataDirs(config: DaemonConfig, switchIds: boolean, log: Logger): Promise<void> {
  const dataDir = resolve(config.dataDir);
  const serversDir = resolve(config.serversDir ?? join(dataDir, 'servers'));
  await mkdir(serversDir, { recursive: true });
  if (dataDir !== '/') {
    await setMode(dataDir, () => 0o711, log);
    for (const name of await readdir(dataDir)) {
      const path = join(dataDir, name);
      if (path !== serversDir) await setMode(path, privateMode, log);
    }
  }
  await setMode(serversDir, () => 0o711, log);
  for (const entry of await readdir(serversDir, { withFileTypes: true })) {
    const path = join(serversDir, entry.name);
    if (entry.isFile()) await setMode(path, privateMode, log);
    else if (entry.isDirectory()) await setMode(path, () => 0o700, log);
  }
  if (!switchIds) return;
  const blocked = await unsearchableAncestors(serversDir, new Set([dataDir, serversDir]));
  if (blocked.length > 0) {
    log.warn(
      { paths: blocked },
      `isolation: servers cannot reach their folders under ${serversDir}: other users may not search ${blocked.join(', ')} (chmod o+x, or move the data dir)`,
    );
  }
}
