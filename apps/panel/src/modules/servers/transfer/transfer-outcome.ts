/**
 * How a transfer's end is told: its final state, `transfer-done` on the server's sockets (where the server is
 * now, and the catalogued error), and one activity entry as the administrator who asked.
 */
import { AppError, isAppError, type TransferError, type TransferState } from '@hearth/contract';
import type { TransferDeps, TransferJob } from './transfer-runner';

/** Any failure as a catalogued error: an unexpected one becomes ErrTransferFailed with its message. */
export function transferErrorOf(err: unknown): TransferError {
  const known = isAppError(err)
    ? err
    : new AppError('ErrTransferFailed', { reason: err instanceof Error ? err.message : 'unknown' });
  return { code: known.code, metadata: { ...known.metadata } };
}

export async function tellOutcome(d: TransferDeps, job: TransferJob, state: TransferState): Promise<void> {
  const { serverId, from, to, actor } = job;
  const { error } = state;
  const node = error ? from.id : to.id;
  d.sockets.broadcast(serverId, {
    type: 'transfer-done',
    data: { ok: !error, node, ...(error ? { error } : {}) },
  });
  await d.activity.record({
    actor,
    action: error ? 'server.transfer.failed' : 'server.transfer.finished',
    serverId,
    nodeId: node,
    details: {
      from: from.id,
      to: to.id,
      bytes: state.bytes,
      ...(error ? { error: error.code } : {}),
      ...(state.leftover ? { leftover: state.leftover } : {}),
    },
  });
}
