/**
 * File modes of what the panel keeps on disk (docs/security.md § Files at rest): the database (with its -wal and
 * -shm files) and config.json are the owner's alone (0600), the data folder is not listable by others (0711: the
 * servers' own unprivileged users still need to pass through it to reach their folders under `servers/`), and the
 * keys folder is 0700 (lib/keys.ts). Modes are tightened on every start, so installs from before keep up.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';

/** Group and other lose read and write; execute (traversal) stays as it was. */
const NO_GROUP_OTHER_RW = 0o066;

/** chmod that tolerates a file we do not own (EPERM): an operator's choice we cannot change, not a failure. */
function chmodOwned(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
  }
}

/** Creates the data folder when missing and takes listing and writing away from group and other. */
export function secureDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o711 });
  const mode = statSync(dir).mode & 0o777;
  if (mode & NO_GROUP_OTHER_RW) chmodOwned(dir, mode & ~NO_GROUP_OTHER_RW);
}

/** A file holding secrets (config.json): 0600 when it exists. */
export function secureSecretFile(path: string): void {
  if (!existsSync(path)) return;
  if ((statSync(path).mode & 0o077) !== 0) chmodOwned(path, 0o600);
}

/**
 * The SQLite file and its companions at 0600. The file is created 0600 before SQLite opens it, because SQLite
 * creates -wal and -shm with the database file's own mode; existing files (older installs) are tightened too.
 */
export function secureSqliteFiles(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) secureSecretFile(file);
}
