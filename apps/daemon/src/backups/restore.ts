/**
 * A restore (docs/backups.md § Restore): into a stopped server only (refused while it runs — a restore never
 * stops a game by itself), under the server's power lock so nothing starts meanwhile. restic writes the snapshot
 * (or the chosen paths) into a staging folder beside the server folder; only when that is complete are the files
 * handed to the server's own uid and swapped in (restore-journal.ts). A failure, a full disk or a killed daemon
 * before the swap leaves the server folder exactly as it was.
 */
import { lchown, lstat, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, isAppError } from '@hearth/contract';
import { handFolderTo } from '../isolation/ownership';
import type { Server } from '../server/server';
import { folderSize } from './folder-size';
import { progressReporter } from './progress';
import type { Repository } from './repository';
import { journalFileOf, swapIn } from './restore-journal';
import { swapPoints } from './swap-points';
import { restorePlan } from './tree';

export interface RestoreDeps {
  repo: Repository;
  serversDir: string;
}

export interface RestoreRequest {
  snapshotId: string;
  /** Relative paths; absent = the whole snapshot. */
  paths: readonly string[] | undefined;
  operation: string;
}

const PROGRESS_MS = 1000;

/** Reports what restic has written so far, once a second, against the snapshot's totals. */
function watchStaging(
  target: Server,
  request: RestoreRequest,
  staging: string,
  totals: { files: number; bytes: number },
) {
  const report = progressReporter(target, request.operation, 'restore');
  const started = Date.now();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void folderSize(staging)
      .then((done) => {
        const rate = done.bytes / Math.max(1, (Date.now() - started) / 1000);
        const left = totals.bytes - done.bytes;
        report({
          filesDone: done.files,
          filesTotal: totals.files,
          bytesDone: done.bytes,
          bytesTotal: totals.bytes,
          etaSeconds: rate > 0 ? Math.max(0, Math.round(left / rate)) : null,
        });
      })
      .finally(() => {
        busy = false;
      });
  }, PROGRESS_MS);
  return {
    stop: () => clearInterval(timer),
    finish: () =>
      report(
        {
          filesDone: totals.files,
          filesTotal: totals.files,
          bytesDone: totals.bytes,
          bytesTotal: totals.bytes,
          etaSeconds: 0,
        },
        true,
      ),
  };
}

/** A full disk on the node during restic's writes is the node's disk, not the destination's. */
function localError(err: unknown): unknown {
  if (isAppError(err) && err.code === 'ErrBackupDestinationFull') return new AppError('ErrRestoreNoSpace');
  return err;
}

/**
 * The folders the swap created above a restored path (swapOne makes missing parents as the daemon) go to the
 * server's ids; everything restored was handed over in the staging folder already, and the rest of the server
 * folder was not touched — so no walk of the whole folder (docs/performance.md § Backups). The parents are real
 * folders (swap-points.ts), and lchown never follows a link.
 */
async function handParentsTo(root: string, points: readonly string[], owner: { uid: number; gid: number }) {
  const parents = new Set<string>();
  for (const point of points) {
    const parts = point.split('/');
    for (let k = 1; k < parts.length; k += 1) parents.add(parts.slice(0, k).join('/'));
  }
  for (const parent of parents) await lchown(join(root, parent), owner.uid, owner.gid);
}

/** restic's `--include` is a pattern (`*`, `?`, `[…]`); a chosen path is matched as it is spelt (backslashes are
 * refused in paths by backupPathSchema, so escaping is unambiguous). */
const literal = (path: string) => path.replace(/[*?[\]]/g, '\\$&');

/**
 * A restore still running after this gets its plan (the totals for the progress) beside it; a short one — one
 * file — never pays for that second restic run, which on two cores doubled its time (docs/performance.md §
 * Backups).
 */
const PLAN_AFTER_MS = 1000;

/**
 * restic restores nothing, and exits 0, for a path the snapshot lacks: each chosen path must be in the staging
 * folder, reached through real folders only (a snapshot's symlink `world -> /etc` must not make `world/passwd`
 * look restored: that path is not in the snapshot).
 */
async function checkRestored(staging: string, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const parts = path.split('/');
    for (let k = 1; k <= parts.length; k += 1) {
      const stat = await lstat(join(staging, ...parts.slice(0, k))).catch(() => null);
      if (!stat || (k < parts.length && !stat.isDirectory()))
        throw new AppError('ErrBackupPathNotFound', { path });
    }
  }
}

async function restoreInto(deps: RestoreDeps, target: Server, request: RestoreRequest): Promise<void> {
  const staging = join(deps.serversDir, `.restore-${target.id}-${request.operation}`);
  const old = `${staging}.old`;
  await mkdir(staging, { mode: 0o700 });
  const totals = { files: 0, bytes: 0 };
  const planning = new AbortController();
  const planTimer = setTimeout(() => {
    restorePlan(deps.repo, request.snapshotId, request.paths ?? [''], planning.signal)
      .then((plan) => Object.assign(totals, plan))
      .catch(() => undefined); // only the progress's totals: the restore itself says what failed
  }, PLAN_AFTER_MS);
  const watch = watchStaging(target, request, staging, totals);
  try {
    const includes = (request.paths ?? []).flatMap((p) => ['--include', `/${literal(p)}`]);
    // --no-lock: the daemon's gate keeps forget and prune away from a running restore (gate.ts), as for the
    // other reads; restic's lock file would add a write, and its refresh, to every restore.
    await deps.repo
      .run('shared', ['restore', '--no-lock', request.snapshotId, '--target', staging, ...includes])
      .catch((err: unknown) => {
        throw localError(err);
      });
    clearTimeout(planTimer);
    planning.abort();
    watch.stop();
    if (request.paths) await checkRestored(staging, request.paths);
    // Without the plan's totals (a short restore, or the plan still running): what was restored, measured once.
    if (totals.files === 0) Object.assign(totals, await folderSize(staging));
    const owner = target.sandbox.owner();
    if (owner) await handFolderTo(staging, owner);
    const root = target.sandbox.root;
    const points = request.paths ? await swapPoints(root, request.paths) : [''];
    await swapIn(journalFileOf(deps.serversDir, target.id), { root, staging, old, paths: points });
    if (owner) await handParentsTo(root, points, owner);
    watch.finish();
  } finally {
    clearTimeout(planTimer);
    planning.abort();
    watch.stop();
    await rm(staging, { recursive: true, force: true });
    await rm(old, { recursive: true, force: true });
  }
}

export async function runRestore(deps: RestoreDeps, target: Server, request: RestoreRequest): Promise<void> {
  if (target.isRunning()) throw new AppError('ErrRestoreServerRunning');
  const release = target.lock.acquire('restore');
  try {
    // Checked again under the lock: a start that began just before holds the lock, one after is refused.
    if (target.isRunning()) throw new AppError('ErrRestoreServerRunning');
    target.say('restore.started', { id: request.snapshotId.slice(0, 8) });
    await restoreInto(deps, target, request);
    target.say('restore.finished', {});
  } catch (err) {
    target.say('restore.failed', { reason: err instanceof Error ? err.message : String(err) });
    throw err;
  } finally {
    release();
  }
}
