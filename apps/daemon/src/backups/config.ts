/**
 * The daemon's `backups` settings (node.json; docs/configuration.md § Daemon, docs/backups.md). The repository,
 * its password and the destination live under `<dataDir>/backups`; these keys only say how restic is found and
 * when the node verifies and prunes its repository.
 */
import { z } from 'zod';
import { cronError } from '@hearth/contract';

/** Empty (never) or a 5-field schedule the tasks' validator accepts. */
const schedule = (def: string) =>
  z
    .string()
    .refine((v) => v.trim() === '' || cronError(v) === null, 'a 5-field cron schedule or empty')
    .default(def);

export const backupsConfigSchema = z.strictObject({
  /** The restic program (Debian's `restic`); looked up on PATH when it has no slash. */
  resticPath: z.string().min(1).default('restic'),
  /** When `restic check --read-data-subset` runs (5-field cron, the tasks' time zone). Empty: never. */
  checkSchedule: schedule('30 4 * * 0'),
  /** How much of the data a scheduled check reads: `5%`, `1/10` or a size such as `500M`. */
  checkSubset: z
    .string()
    .regex(/^(\d+(\.\d+)?%|\d+\/\d+|\d+[kKmMgGtT]?)$/, 'n%, n/t or a size')
    .default('5%'),
  /** When `restic prune` frees the data of forgotten snapshots (not after every backup). Empty: never. */
  pruneSchedule: schedule('0 5 * * 1'),
});
export type BackupsConfig = z.infer<typeof backupsConfigSchema>;
