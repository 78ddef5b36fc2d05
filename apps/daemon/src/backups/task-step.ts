/**
 * The task operation `backup` (docs/daemon.md § Tasks, docs/backups.md): the scheduler's step finds the node's
 * backup service through the settings every Server of this daemon shares, so steps.ts needs no new wiring.
 */
import { AppError } from '@hearth/contract';
import type { Server, ServerSettings } from '../server/server';

export type BackupStepRunner = (server: Server, signal: AbortSignal) => Promise<void>;

const runners = new WeakMap<ServerSettings, BackupStepRunner>();

export function registerBackupStep(settings: ServerSettings, runner: BackupStepRunner): void {
  runners.set(settings, runner);
}

export function runBackupStep(server: Server, signal: AbortSignal): Promise<void> {
  const runner = runners.get(server.settings);
  if (!runner) throw new AppError('ErrBackupUnavailable', { reason: 'backups are not set up on this node' });
  return runner(server, signal);
}
