/**
 * The daemon's socket events about backups (docs/backups.md § Progress), sent to the server's sockets whose token
 * holds viewServerBackups. On their own so daemon.ts can list them without the rest of the backup wire.
 */
import { z } from 'zod';

export const backupProgressDataSchema = z.object({
  operation: z.string(),
  kind: z.enum(['backup', 'restore']),
  filesDone: z.number(),
  filesTotal: z.number(),
  bytesDone: z.number(),
  bytesTotal: z.number(),
  /** Seconds left as restic estimates them (backup) or from the rate so far (restore); null when unknown. */
  etaSeconds: z.number().nullable(),
});
export type BackupProgressData = z.infer<typeof backupProgressDataSchema>;

export const backupDoneDataSchema = z.object({
  operation: z.string(),
  kind: z.enum(['backup', 'restore']),
  ok: z.boolean(),
  /** The new snapshot (backup) or the one restored (restore). */
  backupId: z.string().optional(),
  /** A catalogued error (docs/errors.md) when `ok` is false. */
  error: z
    .object({ code: z.string(), msg: z.string(), metadata: z.record(z.string(), z.unknown()).optional() })
    .optional(),
});
export type BackupDoneData = z.infer<typeof backupDoneDataSchema>;

export const backupProgressEventSchema = z.object({
  type: z.literal('backup-progress'),
  data: backupProgressDataSchema,
});
export type BackupProgressEvent = z.infer<typeof backupProgressEventSchema>;
export const backupDoneEventSchema = z.object({ type: z.literal('backup-done'), data: backupDoneDataSchema });
export type BackupDoneEvent = z.infer<typeof backupDoneEventSchema>;
