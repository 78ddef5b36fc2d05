/**
 * SFTP sessions and their changes for the panel's activity log (docs/activity.md § Node events): the actor is
 * the SFTP user as the panel's login answer named them (id and e-mail), with the client's address.
 */
import type { NodeEventAction } from '@hearth/contract';
import type { NodeEventInput } from '../panel-link/outbox';
import type { SftpGrant } from './panel-auth';
import type { SftpChange } from './session';

/** Where SFTP events go (the node outbox's `append`); absent, nothing is recorded. */
export type SftpEventSink = (event: NodeEventInput & { action: NodeEventAction }) => void;

export interface SftpRecorder {
  session(action: 'sftp.session.opened' | 'sftp.session.closed'): void;
  change(change: SftpChange): void;
}

export function sftpRecorder(
  sink: SftpEventSink | undefined,
  grant: () => SftpGrant,
  ip: string,
): SftpRecorder {
  const emit = (action: NodeEventAction, details: Record<string, unknown>) => {
    const { userId, email, serverId } = grant();
    sink?.({ action, serverId, actor: { type: 'user', id: userId, label: email }, ip, details });
  };
  return {
    session: (action) => emit(action, {}),
    change: ({ action, ...paths }) => emit(action, paths),
  };
}
