/**
 * What the node remembers about each server's backups beside the repository (`<backupsDir>/servers/<id>.json`,
 * written atomically, one write at a time per server): the policy, which snapshots are locked, each snapshot's
 * figures from its backup run (restic 0.14's listing has no sizes), the last result and the last manual backup.
 * Losing this file loses no backup: snapshots stay listed, with unknown sizes and unlocked.
 */
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { backupPolicySchema, backupResultSchema, type BackupResult } from '@hearth/contract';
import { readIfExists, writePrivate } from './atomic-file';

const recordSchema = z.object({
  sizeAdded: z.number().nullable(),
  totalSize: z.number().nullable(),
  fileCount: z.number().nullable(),
  hooks: z.enum(['ran', 'none']).default('none'),
});
export type SnapshotRecord = z.infer<typeof recordSchema>;

const stateSchema = z.object({
  policy: backupPolicySchema.default(backupPolicySchema.parse({})),
  locked: z.array(z.string()).default([]),
  records: z.record(z.string(), recordSchema).default({}),
  last: backupResultSchema.nullable().default(null),
  lastManualAt: z.number().nullable().default(null),
});
export type ServerBackupState = z.infer<typeof stateSchema>;

export class BackupStateStore {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly dir: string) {}

  private fileOf(serverId: string): string {
    return join(this.dir, `${serverId}.json`);
  }

  async read(serverId: string): Promise<ServerBackupState> {
    const text = await readIfExists(this.fileOf(serverId));
    if (text === null) return stateSchema.parse({});
    const parsed = stateSchema.safeParse(JSON.parse(text));
    // A damaged file is not fatal: the snapshots are in the repository; only figures and locks are lost.
    return parsed.success ? parsed.data : stateSchema.parse({});
  }

  /** Read-modify-write, in order per server. */
  update(serverId: string, change: (state: ServerBackupState) => void): Promise<ServerBackupState> {
    const previous = this.queues.get(serverId) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const state = await this.read(serverId);
        change(state);
        await writePrivate(this.fileOf(serverId), `${JSON.stringify(state)}\n`);
        return state;
      });
    this.queues.set(serverId, next);
    return next;
  }

  async setLast(serverId: string, last: BackupResult): Promise<void> {
    await this.update(serverId, (state) => {
      state.last = last;
    });
  }

  async remove(serverId: string): Promise<void> {
    await rm(this.fileOf(serverId), { force: true });
  }
}
