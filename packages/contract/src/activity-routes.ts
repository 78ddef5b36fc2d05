/**
 * Which proxied daemon calls the activity log records (docs/activity.md § Proxied calls): the state-changing
 * rows of the permission table, each with its action. The panel records one entry after the daemon answered
 * below 400, with the caller, IP and server; reads are not recorded. Keyed by the table's row names, so a
 * renamed or removed row fails the type check here.
 */
import type { ActivityAction } from './activity';
import type { DaemonRouteKey } from './daemon-routes';

export interface ProxyActivity {
  readonly action: ActivityAction;
  /** The request body is a short text worth keeping (a console command): its first 2 KiB go into details. */
  readonly body?: 'text';
}

export const proxyActivity: Partial<Record<DaemonRouteKey, ProxyActivity>> = {
  definitionWrite: { action: 'server.definition.changed' },
  reload: { action: 'server.reload' },
  dataWrite: { action: 'server.data.changed' },
  consoleSend: { action: 'server.console.command', body: 'text' },
  start: { action: 'server.power.start' },
  stop: { action: 'server.power.stop' },
  kill: { action: 'server.power.kill' },
  install: { action: 'server.install' },
  fileRootPut: { action: 'server.file.write' },
  filePut: { action: 'server.file.write' },
  fileRootDelete: { action: 'server.file.delete' },
  fileDelete: { action: 'server.file.delete' },
  archive: { action: 'server.file.archive' },
  extract: { action: 'server.file.extract' },
  fileMove: { action: 'server.file.move' },
  fileCopy: { action: 'server.file.copy' },
  fileChmod: { action: 'server.file.chmod' },
  taskCreate: { action: 'server.task.created' },
  taskUpdate: { action: 'server.task.changed' },
  taskDelete: { action: 'server.task.deleted' },
  taskRun: { action: 'server.task.run' },
  backupCreate: { action: 'server.backup.created' },
  backupRestore: { action: 'server.backup.restored' },
  backupDelete: { action: 'server.backup.deleted' },
  backupLock: { action: 'server.backup.locked' },
  backupPolicyWrite: { action: 'server.backup.policy' },
};
