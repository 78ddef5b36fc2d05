/**
 * The end of a backup or restore (docs/backups.md § Progress): recorded as the server's last result and sent as
 * `backup-done` with a catalogued error (anything unknown is ErrGeneric, its details only in the log).
 */
import type { Logger } from 'pino';
import { AppError, isAppError } from '@hearth/contract';
import type { Server } from '../server/server';
import { emitBackupEvent } from './events';
import type { Operation } from './operations';
import type { BackupStateStore } from './state-store';

export interface Outcome {
  backupId?: string;
  error?: unknown;
}

export async function reportOutcome(
  deps: { states: BackupStateStore; log: Logger; at: number },
  server: Server,
  operation: Operation,
  kind: 'backup' | 'restore',
  outcome: Outcome,
): Promise<void> {
  const known =
    outcome.error === undefined
      ? null
      : isAppError(outcome.error)
        ? outcome.error
        : new AppError('ErrGeneric');
  if (outcome.error !== undefined && !isAppError(outcome.error))
    deps.log.error({ err: outcome.error, serverId: server.id }, `backups: ${kind} failed`);
  const ok = known === null;
  const backupId = outcome.backupId ? { backupId: outcome.backupId } : {};
  await deps.states
    .setLast(server.id, {
      operation: operation.id,
      kind,
      at: deps.at,
      ok,
      ...backupId,
      ...(known ? { error: { code: known.code, msg: known.message } } : {}),
    })
    .catch((err: unknown) => deps.log.error({ err }, 'backups: cannot record the last result'));
  emitBackupEvent(server, {
    type: 'backup-done',
    data: {
      operation: operation.id,
      kind,
      ok,
      ...backupId,
      ...(known ? { error: known.toBody().error } : {}),
    },
  });
}
