/**
 * The node outbox on disk (docs/activity.md § Node events): `<dataDir>/events/outbox.jsonl`, one event per line,
 * appended and fsync'd in batches, and `outbox.json`, the outbox's id, the last acknowledged sequence number and
 * the count of events dropped at the bound, replaced whole (temp file, fsync, rename). Acknowledged lines are
 * removed by rewriting the log the same way, so a crash leaves either the old file or the new one.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeEventSchema, type NodeEvent } from '@hearth/contract';
import { writePrivate } from '../backups/atomic-file';

export interface OutboxState {
  /** Changes only when the folder is wiped: the panel then starts its cursor again. */
  id: string;
  acked: number;
  /** Events refused at the bound and not yet told in a marker event. */
  dropped: { count: number; since: number; until: number } | null;
}

export interface OutboxFiles {
  log: string;
  state: string;
  dir: string;
}

export function outboxFiles(dir: string): OutboxFiles {
  return { dir, log: join(dir, 'outbox.jsonl'), state: join(dir, 'outbox.json') };
}

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Writes `content` whole or not at all: a temp file fsync'd, renamed over `path`, the folder fsync'd. */
export async function replaceFile(dir: string, path: string, content: string): Promise<void> {
  await writePrivate(path, content);
  await syncDir(dir);
}

/** A rename is durable once its folder is; some filesystems refuse to open a folder for sync, which is fine. */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => null);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
}

/** The saved state, or a new outbox's (fresh id, nothing acknowledged). */
export async function readState(files: OutboxFiles): Promise<OutboxState> {
  await mkdir(files.dir, { recursive: true, mode: 0o700 });
  const text = await readIfExists(files.state);
  if (text !== null) {
    const parsed = JSON.parse(text) as Partial<OutboxState>;
    if (typeof parsed.id === 'string' && typeof parsed.acked === 'number')
      return { id: parsed.id, acked: parsed.acked, dropped: parsed.dropped ?? null };
  }
  const fresh: OutboxState = { id: randomUUID(), acked: 0, dropped: null };
  await writeState(files, fresh);
  return fresh;
}

export function writeState(files: OutboxFiles, state: OutboxState): Promise<void> {
  return replaceFile(files.dir, files.state, JSON.stringify(state));
}

/**
 * The events of the log, oldest first. A line that does not parse is the tail of an append cut short by a crash
 * (it was never fsync'd, so never handed to the panel): it is skipped, and the caller rewrites the log.
 */
export async function readLog(files: OutboxFiles): Promise<NodeEvent[]> {
  const text = await readIfExists(files.log);
  if (!text) return [];
  const events: NodeEvent[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const parsed = nodeEventSchema.safeParse(JSON.parse(line));
      if (parsed.success) events.push(parsed.data);
    } catch {
      // a torn last line: see above
    }
  }
  return events;
}

/** Appends lines and fsyncs them: once this resolves, the events survive a crash of the daemon or the machine. */
export async function appendLines(files: OutboxFiles, lines: readonly string[]): Promise<void> {
  const handle = await open(files.log, 'a', 0o600);
  try {
    await handle.write(lines.join(''));
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
