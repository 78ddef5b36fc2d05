/**
 * Puts restored files into place: each target that exists is renamed into `previous` (kept, never deleted),
 * then the restored one is renamed in. Everything was unpacked and checked before the first rename, so a bad
 * archive or a full disk leaves the data folder as it was (docs/backups.md § The panel's own data).
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface Swap {
  from: string;
  to: string;
}

/** Moves `path` aside into `previous` under `name` when it exists. */
function putAside(path: string, previous: string, name: string): void {
  if (!existsSync(path)) return;
  mkdirSync(dirname(join(previous, name)), { recursive: true, mode: 0o700 });
  renameSync(path, join(previous, name));
}

/**
 * The database: copied first beside its target (it may be on another filesystem than the staging folder), and
 * its old `-wal`/`-shm`/`-journal` files go aside with it — SQLite would otherwise replay the old database's
 * log into the restored one.
 */
export function stageDatabase(restored: string, target: string): Swap {
  const beside = `${target}.restoring`;
  rmSync(beside, { force: true });
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(restored, beside);
  return { from: beside, to: target };
}

export function swapIn(swaps: Swap[], previous: string, databaseTarget: string | null): void {
  mkdirSync(previous, { recursive: true, mode: 0o700 });
  for (const { from, to } of swaps) {
    putAside(to, previous, basename(to));
    if (to === databaseTarget)
      for (const suffix of ['-wal', '-shm', '-journal'])
        putAside(`${to}${suffix}`, previous, `${basename(to)}${suffix}`);
    mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
    renameSync(from, to);
  }
}
