/**
 * The panel backup archive: a gzipped tar made by the system's `tar` (GNU tar on Debian) from a staging
 * folder, written to a file created 0600 before the first byte (it holds the panel's keys) and renamed into
 * place only when complete (docs/backups.md § The panel's own data).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

export const MANIFEST = 'manifest.json';
export const FORMAT = 'hearth-panel-backup';

export interface Manifest {
  format: typeof FORMAT;
  version: 1;
  createdAt: string;
  /** The dialect of the panel's database; only `sqlite` has its database in the archive. */
  database: 'sqlite' | 'postgres' | 'mysql';
  files: string[];
}

function tar(args: string[], stdout: number | 'pipe'): void {
  const run = spawnSync('tar', args, { stdio: ['ignore', stdout, 'pipe'], encoding: 'utf8' });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`tar ${args[0]} failed: ${run.stderr.trim()}`);
}

/** Packs the folder `stage` into `out` atomically (temp file beside it + rename), mode 0600. */
export function writeArchive(stage: string, out: string): void {
  const temp = `${out}.${randomBytes(4).toString('hex')}.partial`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    tar(['czf', '-', '-C', stage, '.'], fd);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  closeSync(fd);
  renameSync(temp, out);
}

/** Unpacks `file` into the (empty) folder `into`; owners are not taken from the archive. */
export function readArchive(file: string, into: string): void {
  tar(['xzf', file, '-C', into, '--no-same-owner', '--no-same-permissions'], 'pipe');
}
