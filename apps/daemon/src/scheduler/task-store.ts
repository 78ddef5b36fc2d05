/**
 * Tasks on disk: `<serversDir>/<id>.tasks.json`, a sibling of the definition `<id>.json`, written atomically
 * (temp file + rename). Kept apart from the definition so a definition save (the template editor sends no
 * tasks — PufferPanel v2's editor wiped them) never loses them, and recording a run's result does not rewrite
 * the definition. A definition's own `tasks` map (PufferPanel v2 import) is read once when no file exists.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  taskIdSchema,
  taskInputSchema,
  taskLastRunSchema,
  type TaskInput,
  type TaskLastRun,
} from '@hearth/contract';

export interface StoredTask extends TaskInput {
  /**
   * The user (token `sub`) who last saved it: steps run with their access (task-owner.ts). Null for tasks
   * stored before owners existed and PufferPanel imports; those do not run until saved again.
   */
  owner: string | null;
  lastRun: TaskLastRun | null;
}

const storedTaskSchema = z.object({
  ...taskInputSchema.shape,
  owner: z.string().min(1).nullable().default(null),
  lastRun: taskLastRunSchema.nullable().default(null),
});

export class TaskStore {
  constructor(readonly dir: string) {}

  fileOf(serverId: string): string {
    return join(this.dir, `${serverId}.tasks.json`);
  }

  /** Null when the server has no tasks file yet. A task that no longer parses is dropped with `onBad`. */
  async read(
    serverId: string,
    onBad: (taskId: string, reason: string) => void,
  ): Promise<Map<string, StoredTask> | null> {
    let text: string;
    try {
      text = await readFile(this.fileOf(serverId), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const raw = (JSON.parse(text) as { tasks?: unknown } | null)?.tasks;
    return parseTaskMap(raw, onBad, { keepOwners: true });
  }

  async write(serverId: string, tasks: Map<string, StoredTask>): Promise<void> {
    const file = this.fileOf(serverId);
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const body = JSON.stringify({ tasks: Object.fromEntries(tasks) }, null, 2);
      await writeFile(temp, body, { flag: 'wx', mode: 0o600 });
      await rename(temp, file);
    } finally {
      await rm(temp, { force: true });
    }
  }

  async remove(serverId: string): Promise<void> {
    await rm(this.fileOf(serverId), { force: true });
  }
}

/**
 * `{id: task}` from a file or a PufferPanel definition's `tasks`; bad entries are reported and skipped. Only
 * the daemon's own file (`keepOwners`) names owners: a definition is written by whoever may save one, so an
 * `owner` in it is dropped — it could name someone with more access than its writer.
 */
export function parseTaskMap(
  raw: unknown,
  onBad: (taskId: string, reason: string) => void,
  { keepOwners = false } = {},
): Map<string, StoredTask> {
  const tasks = new Map<string, StoredTask>();
  if (typeof raw !== 'object' || raw === null) return tasks;
  for (const [taskId, value] of Object.entries(raw)) {
    if (!taskIdSchema.safeParse(taskId).success) {
      onBad(taskId, 'the id may hold only letters, digits, _ or -');
      continue;
    }
    const parsed = storedTaskSchema.safeParse(value);
    if (parsed.success) tasks.set(taskId, keepOwners ? parsed.data : { ...parsed.data, owner: null });
    else onBad(taskId, parsed.error.issues[0]?.message ?? 'invalid');
  }
  return tasks;
}
