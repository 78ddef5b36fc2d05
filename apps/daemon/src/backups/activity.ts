/**
 * Backups and restores for the panel's activity log (docs/activity.md § Node events). A backup someone asked
 * for through the panel is already recorded there as it is asked; the node records what nobody watched: the
 * result of a scheduled or task backup, and any backup or restore that failed (with its catalogued code).
 */
import { isAppError, type BackupTrigger } from '@hearth/contract';
import { nodeActor, recordNodeEvent } from '../panel-link/node-events';
import type { Server } from '../server/server';

function codeOf(err: unknown): string {
  return isAppError(err) ? err.code : 'ErrGeneric';
}

export function recordBackup(
  server: Server,
  trigger: BackupTrigger,
  result: { id: string } | { error: unknown },
) {
  const unattended = trigger !== 'manual';
  if ('id' in result && !unattended) return;
  const action =
    'id' in result
      ? 'server.backup.scheduled.created'
      : unattended
        ? 'server.backup.scheduled.failed'
        : 'server.backup.failed';
  const details =
    'id' in result ? { trigger, backupId: result.id } : { trigger, error: codeOf(result.error) };
  recordNodeEvent(server.settings, { action, serverId: server.id, actor: nodeActor, ip: null, details });
}

export function recordRestoreFailed(server: Server, backupId: string, err: unknown) {
  recordNodeEvent(server.settings, {
    action: 'server.backup.restore.failed',
    serverId: server.id,
    actor: nodeActor,
    ip: null,
    details: { backupId, error: codeOf(err) },
  });
}
