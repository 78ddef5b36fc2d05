import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ActivityAction, ActivityActorType, ActivityDetails, ActivityEntry } from '@hearth/contract';
import type { ActivityFilter, ActivityRepository, ActivityRow } from './activity.repository';
import { contextActor } from './request-context';
import { scrubDetails } from './scrub';

/** Who did it: a user (session), an OAuth2 client acting for its user, a task, the panel itself, or a node. */
export interface ActivityActor {
  type: ActivityActorType;
  id: string | null;
  label: string;
  ip: string | null;
}

export interface ActivityRecord {
  actor: ActivityActor;
  action: ActivityAction;
  serverId?: string | null;
  nodeId?: string | null;
  details?: ActivityDetails;
  /** When it happened (a node's event carries its own time); now by default. */
  time?: number;
}

export const systemActor: ActivityActor = { type: 'system', id: null, label: 'system', ip: null };

export function toEntry(row: ActivityRow): ActivityEntry {
  return {
    id: row.id,
    time: Number(row.time),
    actorType: row.actor_type as ActivityActorType,
    actorId: row.actor_id,
    actorLabel: row.actor_label,
    ip: row.ip,
    serverId: row.server_id,
    nodeId: row.node_id,
    action: row.action,
    details: JSON.parse(row.details) as ActivityDetails,
  };
}

/** Rows per INSERT at most (10 columns each: 500 parameters, under every dialect's limit). */
export const ACTIVITY_BATCH_MAX = 50;
/** How long the first entry of a batch waits for others (docs/activity.md § Cost). */
export const ACTIVITY_FLUSH_MS = 5;

interface Pending {
  row: ActivityRow;
  done: () => void;
}

/**
 * The one place entries are written (docs/activity.md). A failed write is logged, never thrown: the action it
 * describes has already happened, and the caller's answer must say so.
 *
 * Entries are written in batches (docs/activity.md § Cost): an entry waits up to ACTIVITY_FLUSH_MS for others,
 * then they go in one multi-row INSERT (one statement and one commit instead of one per entry); while a batch is
 * being written the next one gathers. `record` resolves once its entry is stored, so a caller that awaits it
 * still finds the entry in the log; `close` writes what is pending (the app's onClose, before the database
 * closes), so a normal stop loses nothing.
 */
/** The stored row of one entry: a new id, the label cut to its column, secrets scrubbed from the details. */
export function activityRowOf(record: ActivityRecord): ActivityRow {
  return {
    id: randomUUID(),
    time: record.time ?? Date.now(),
    actor_type: record.actor.type,
    actor_id: record.actor.id,
    actor_label: record.actor.label.slice(0, 191),
    ip: record.actor.ip,
    server_id: record.serverId ?? null,
    node_id: record.nodeId ?? null,
    action: record.action,
    details: JSON.stringify(scrubDetails(record.details ?? {})),
  };
}

export class ActivityService {
  /** Called with each entry once it is stored (the alert engine listens: docs/alerts.md). */
  readonly #listeners = new Set<(entry: ActivityEntry) => void>();
  #pending: Pending[] = [];
  #timer: NodeJS.Timeout | null = null;
  #writing: Promise<void> | null = null;

  constructor(
    private readonly repo: ActivityRepository,
    private readonly log: () => FastifyBaseLogger,
    /** Config `panel.activityEnabled`: off, nothing is recorded (docs/activity.md § Turning it off). */
    readonly enabled = true,
  ) {}

  record(record: ActivityRecord): Promise<void> {
    if (!this.enabled) return Promise.resolve();
    const row = activityRowOf(record);
    return new Promise((done) => {
      this.#pending.push({ row, done });
      this.#schedule();
    });
  }

  /** Writes every pending entry (resolves once they are stored or their failure is logged). */
  async flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    while (this.#writing || this.#pending.length > 0) {
      if (this.#writing) await this.#writing;
      else this.#write();
    }
  }

  /** The app is stopping: pending entries are written. */
  close(): Promise<void> {
    return this.flush();
  }

  #schedule(): void {
    if (this.#writing) return; // the write under way starts the next batch when it ends
    if (this.#pending.length >= ACTIVITY_BATCH_MAX) {
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = null;
      this.#write();
      return;
    }
    this.#timer ??= setTimeout(() => {
      this.#timer = null;
      this.#write();
    }, ACTIVITY_FLUSH_MS);
  }

  #write(): void {
    const batch = this.#pending.splice(0, ACTIVITY_BATCH_MAX);
    if (batch.length === 0) return;
    const rows = batch.map((p) => p.row);
    this.#writing = this.repo
      .insertMany(rows)
      .then(
        () => this.announce(rows),
        (err: unknown) =>
          this.log().error(
            { err, actions: [...new Set(rows.map((r) => r.action))], count: rows.length },
            'activity entries not written',
          ),
      )
      .finally(() => {
        this.#writing = null;
        for (const p of batch) p.done();
        if (this.#pending.length > 0) this.#schedule();
      });
  }

  /** Tells the listeners about rows stored elsewhere (the node outbox writes its rows with its cursor). */
  announce(rows: readonly ActivityRow[]): void {
    if (this.#listeners.size === 0) return;
    for (const row of rows) {
      const entry = toEntry(row);
      for (const listener of this.#listeners) {
        try {
          listener(entry);
        } catch (err) {
          this.log().warn({ err, action: row.action }, 'activity listener failed');
        }
      }
    }
  }

  /** Subscribes to stored entries; answers the unsubscribe function. */
  onRecorded(listener: (entry: ActivityEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Records for the request being served (its user and IP), or as the system outside a request. */
  here(action: ActivityAction, rest: Omit<ActivityRecord, 'actor' | 'action'> = {}): Promise<void> {
    return this.record({ actor: contextActor() ?? systemActor, action, ...rest });
  }

  async page(filter: ActivityFilter, page: number, limit: number) {
    const { rows, total } = await this.repo.page(filter, page, limit);
    return { entries: rows.map(toEntry), total };
  }

  /** Every matching entry, newest first, in chunks (an export streams them; `max` bounds it). */
  async *walk(filter: ActivityFilter, max: number): AsyncGenerator<ActivityEntry> {
    let after: { time: number; id: string } | null = null;
    let sent = 0;
    while (sent < max) {
      const rows = await this.repo.chunk(filter, after, Math.min(500, max - sent));
      for (const row of rows) yield toEntry(row);
      sent += rows.length;
      const last = rows.at(-1);
      if (!last || rows.length < 500) return;
      after = { time: last.time, id: last.id };
    }
  }

  /** Deletes the entries older than `days` (the retention setting); returns how many went. */
  prune(days: number, now = Date.now()): Promise<number> {
    return this.repo.deleteBefore(now - days * 24 * 60 * 60 * 1000);
  }
}
