/**
 * Backups on this node, built by the daemon's composition root (daemon.ts): the service the routes and the
 * `backup` task step use, the node's destination and upkeep, under `<dataDir>/backups` (docs/backups.md § Files).
 */
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { DaemonConfig } from '../config/schema';
import type { ServerManager } from '../manager/manager';
import type { ServerSettings } from '../server/server';
import { Maintenance } from './maintenance';
import { NodeBackups } from './node-backups';
import { BackupService } from './service';
import { registerBackupStep } from './task-step';

export interface Backups {
  service: BackupService;
  node: NodeBackups;
  /** Finishes interrupted restores and arms the schedules (before servers autostart). */
  start(serverIds: readonly string[]): Promise<void>;
  stop(): void;
}

export function createBackups(
  config: DaemonConfig,
  manager: ServerManager,
  settings: ServerSettings,
  log: Logger,
): Backups {
  const backupsDir = join(resolve(config.dataDir), 'backups');
  const serversDir = resolve(config.serversDir ?? join(config.dataDir, 'servers'));
  const service = new BackupService({
    backupsDir,
    serversDir,
    nodeId: config.nodeId,
    resticPath: config.backups.resticPath,
    time: settings.tasks,
    server: (id) => manager.get(id),
    log,
  });
  const maintenance = new Maintenance(service.repo, config.backups, settings.tasks, log);
  // A task's `backup` step: trigger `task`; a step ends (fails) with the backup.
  registerBackupStep(settings, async (server) => {
    await service.create(server, { trigger: 'task', by: null });
  });
  return {
    service,
    node: new NodeBackups(service.repo, maintenance, config.backups.resticPath, serversDir),
    start: async (serverIds) => {
      await service.start(serverIds);
      maintenance.start();
    },
    stop: () => {
      service.stop();
      maintenance.stop();
    },
  };
}
