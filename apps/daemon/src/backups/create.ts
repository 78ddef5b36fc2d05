/**
 * One backup of a server (docs/backups.md § Backups): limits first, then the hooks around `restic backup`
 * streaming straight from the server folder (no staging archive), its figures kept, retention applied.
 */
import { AppError, type BackupPolicy, type BackupTrigger } from '@hearth/contract';
import type { Server } from '../server/server';
import { withHooks, hooksOf } from './hooks';
import { figuresOfStatus, progressReporter } from './progress';
import type { Repository } from './repository';
import { applyRetention } from './retention';
import { listSnapshots, serverTag, snapshotOfBackup, tagValue } from './snapshots';
import type { BackupStateStore, ServerBackupState } from './state-store';

export interface BackupRequest {
  trigger: BackupTrigger;
  /** The user who asked (token `sub`); null for the policy's schedule. */
  by: string | null;
}

export interface BackupDeps {
  repo: Repository;
  states: BackupStateStore;
  nodeId: string;
  now: () => number;
}

/** Admin limits (docs/backups.md § Limits): too soon after a manual one, too many snapshots, too many bytes. */
async function checkLimits(
  deps: BackupDeps,
  server: Server,
  state: ServerBackupState,
  trigger: BackupTrigger,
) {
  const { limits } = state.policy;
  if (trigger === 'manual' && limits.minIntervalSeconds !== null && state.lastManualAt !== null) {
    const wait = state.lastManualAt + limits.minIntervalSeconds * 1000 - deps.now();
    if (wait > 0) throw new AppError('ErrBackupTooSoon', { seconds: Math.ceil(wait / 1000) });
  }
  if (limits.maxSnapshots === null && limits.maxRepositoryBytes === null) return;
  const snapshots = await listSnapshots(deps.repo, server.id);
  if (limits.maxSnapshots !== null && snapshots.length >= limits.maxSnapshots)
    throw new AppError('ErrBackupLimitReached', { limit: `maxSnapshots ${limits.maxSnapshots}` });
  const used = snapshots.reduce((sum, s) => sum + (state.records[s.id]?.sizeAdded ?? 0), 0);
  if (limits.maxRepositoryBytes !== null && used >= limits.maxRepositoryBytes)
    throw new AppError('ErrBackupLimitReached', { limit: `maxRepositoryBytes ${limits.maxRepositoryBytes}` });
}

function tagsOf(server: Server, request: BackupRequest, asIs: boolean, hooks: 'ran' | 'none'): string[] {
  const tags = [serverTag(server.id), `hearth-trigger:${request.trigger}`];
  if (request.by) tags.push(`hearth-by:${tagValue(request.by)}`);
  if (asIs) tags.push('hearth-as-is');
  if (hooks === 'ran') tags.push('hearth-hooks');
  return tags.flatMap((tag) => ['--tag', tag]);
}

interface Summary {
  snapshot_id?: string;
  data_added?: number;
  total_bytes_processed?: number;
  total_files_processed?: number;
}

/** Runs the backup; returns the new snapshot's full id. */
export async function runBackup(
  deps: BackupDeps,
  server: Server,
  request: BackupRequest,
  operation: string,
  policy: BackupPolicy,
): Promise<string> {
  const state = await deps.states.read(server.id);
  await checkLimits(deps, server, state, request.trigger);
  const report = progressReporter(server, operation, 'backup');
  let summary: Summary = {};
  const outcome = await withHooks(server, hooksOf(server, policy), async (hookOutcome) => {
    const args = ['backup', '--json', '--host', `hearth-${tagValue(deps.nodeId)}`];
    args.push(...tagsOf(server, request, hookOutcome.asIs, hookOutcome.hooks), '.');
    await deps.repo.run('shared', args, {
      cwd: server.sandbox.root,
      okCodes: [3],
      onJson: (message) => {
        if (message.message_type === 'status') report(figuresOfStatus(message));
        if (message.message_type === 'summary') summary = message;
      },
    });
    return hookOutcome;
  });
  const short = summary.snapshot_id;
  // The summary names the snapshot (docs/performance.md § Backups: one restic run after the backup, not a listing).
  const snapshot = short ? await snapshotOfBackup(deps.repo, server.id, short) : undefined;
  if (!snapshot) throw new AppError('ErrBackupFailed', { reason: 'restic reported no snapshot' });
  const after = await deps.states.update(server.id, (s) => {
    s.records[snapshot.id] = {
      sizeAdded: summary.data_added ?? null,
      totalSize: summary.total_bytes_processed ?? null,
      fileCount: summary.total_files_processed ?? null,
      hooks: outcome.hooks,
    };
    if (request.trigger === 'manual') s.lastManualAt = deps.now();
  });
  await retain(deps, server, policy, after.locked);
  return snapshot.id;
}

/** Retention after a backup; its failure does not undo the backup (the next backup applies it again). */
async function retain(deps: BackupDeps, server: Server, policy: BackupPolicy, locked: readonly string[]) {
  try {
    const forgotten = await applyRetention(deps.repo, server.id, policy.retention, locked);
    if (forgotten.length === 0) return;
    await deps.states.update(server.id, (s) => {
      for (const id of forgotten) delete s.records[id];
    });
    server.say('backup.retention', { forgotten: forgotten.length });
  } catch (err) {
    server.say('backup.retentionFailed', { reason: err instanceof Error ? err.message : String(err) });
  }
}
