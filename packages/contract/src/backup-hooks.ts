/**
 * A template's (or a backup policy's) console commands around a backup of a running server (docs/backups.md
 * § Hooks). On its own so template.ts can use it without the rest of the backup wire.
 */
import { z } from 'zod';

const oneLine = z
  .string()
  .min(1)
  .max(1000)
  .regex(/^[^\r\n]*$/, 'one line only');

/**
 * Console commands around a backup of a running server (also the template format's `backup`, template.ts): `pre`
 * lines are sent, then the daemon waits for a console line containing `waitFor` (at most `timeoutSeconds`),
 * snapshots, and sends `post` — also when the snapshot fails.
 */
export const backupHooksSchema = z.object({
  pre: z.array(oneLine).max(20).default([]),
  waitFor: z.string().min(1).max(200).optional(),
  post: z.array(oneLine).max(20).default([]),
  timeoutSeconds: z.number().int().min(1).max(3600).default(60),
});
export type BackupHooks = z.output<typeof backupHooksSchema>;
