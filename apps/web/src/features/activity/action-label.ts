/**
 * Readable names of the actions a node records (docs/activity.md § Node events); the table shows the name
 * beside the action code, and the code alone for the panel's own actions.
 */
import type { NodeEventAction } from '@hearth/contract';

const keys: Record<NodeEventAction, string> = {
  'server.crashed': 'serverCrashed',
  'server.restarted.auto': 'serverRestartedAuto',
  'sftp.session.opened': 'sftpSessionOpened',
  'sftp.session.closed': 'sftpSessionClosed',
  'sftp.file.write': 'sftpFileWrite',
  'sftp.file.delete': 'sftpFileDelete',
  'sftp.file.rename': 'sftpFileRename',
  'sftp.file.mkdir': 'sftpFileMkdir',
  'sftp.file.setstat': 'sftpFileSetstat',
  'server.task.finished': 'serverTaskFinished',
  'server.backup.scheduled.created': 'serverBackupScheduledCreated',
  'server.backup.scheduled.failed': 'serverBackupScheduledFailed',
  'server.backup.failed': 'serverBackupFailed',
  'server.backup.restore.failed': 'serverBackupRestoreFailed',
  'node.events.dropped': 'nodeEventsDropped',
  'server.threshold.reached': 'serverThresholdReached',
  'server.console.matched': 'serverConsoleMatched',
};

/** The i18n key of the action's name (`activity.actions.*`), or null when it has none. */
export function actionLabelKey(action: string): string | null {
  const key = Object.hasOwn(keys, action) ? keys[action as NodeEventAction] : undefined;
  return key ? `activity.actions.${key}` : null;
}
