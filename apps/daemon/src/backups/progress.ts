/**
 * Progress of an operation to the server's sockets, at most a few times a second (docs/backups.md § Progress):
 * restic's `--json` status lines for a backup, the restored bytes so far for a restore.
 */
import type { BackupProgressData } from '@hearth/contract';
import type { Server } from '../server/server';
import { emitBackupEvent } from './events';

const MIN_INTERVAL_MS = 250;

export type ProgressFigures = Omit<BackupProgressData, 'operation' | 'kind'>;

export function progressReporter(
  server: Server,
  operation: string,
  kind: 'backup' | 'restore',
): (figures: ProgressFigures, force?: boolean) => void {
  let last = 0;
  return (figures, force = false) => {
    const now = Date.now();
    if (!force && now - last < MIN_INTERVAL_MS) return;
    last = now;
    emitBackupEvent(server, { type: 'backup-progress', data: { operation, kind, ...figures } });
  };
}

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** restic's backup status line → the socket's figures. */
export function figuresOfStatus(message: Record<string, unknown>): ProgressFigures {
  const eta = message.seconds_remaining;
  return {
    filesDone: num(message.files_done),
    filesTotal: num(message.total_files),
    bytesDone: num(message.bytes_done),
    bytesTotal: num(message.total_bytes),
    etaSeconds: typeof eta === 'number' ? eta : null,
  };
}
