/**
 * The node outbox (docs/activity.md § Node events, docs/adr/0012-node-event-outbox.md): events only this node
 * sees wait here, on disk, until the panel pulls them (`GET /daemon/events`) and acknowledges them
 * (`POST /daemon/events/ack`). Each event gets the next sequence number as it is appended; appends are written
 * and fsync'd in batches (the events appended while one batch is being written form the next), and a page only
 * holds fsync'd events — so a sequence number the panel has seen is never handed out again after a crash.
 * The outbox is bounded (`maxBytes` of unacknowledged events, in memory and on disk): beyond it events are
 * refused and counted, and once there is room again one `node.events.dropped` marker says how many, and when.
 * Every file operation runs in one queue, so appends, acknowledgements and rewrites never interleave.
 */
import type { Logger } from 'pino';
import type { NodeEvent, NodeEventsPage } from '@hearth/contract';
import {
  appendLines,
  outboxFiles,
  readLog,
  readState,
  replaceFile,
  writeState,
  type OutboxFiles,
  type OutboxState,
} from './outbox-file';

/** What a recorder gives: the outbox stamps the sequence number (and the time, when absent). */
export type NodeEventInput = Omit<NodeEvent, 'seq' | 'time'> & { time?: number };

export interface OutboxOptions {
  /** The outbox's folder (`<dataDir>/events`). */
  dir: string;
  /** The most bytes of unacknowledged events kept (their JSON lines). */
  maxBytes?: number;
  log: Logger;
}

/** 8 MiB: some thousands of crashes with their console lines, or far more SFTP writes. */
export const OUTBOX_MAX_BYTES = 8 * 1024 * 1024;
/** One event's line at most; a bigger one keeps its action and loses its details (console lines bound it). */
export const OUTBOX_EVENT_MAX_BYTES = 32 * 1024;

interface Held {
  event: NodeEvent;
  line: string;
}

export class OutboxAckError extends Error {
  constructor(readonly field: 'outbox' | 'seq') {
    super(`the acknowledgement's ${field} does not match this outbox`);
  }
}

export class Outbox {
  /** Unacknowledged events, oldest first; `durable` of them (from the start) are fsync'd. */
  private held: Held[] = [];
  private durable = 0;
  private heldBytes = 0;
  private nextSeq: number;
  private queue: Promise<void> = Promise.resolve();
  private writing = false;
  private stateDirty = false;
  private closed = false;

  private constructor(
    private readonly files: OutboxFiles,
    private state: OutboxState,
    events: NodeEvent[],
    private readonly maxBytes: number,
    private readonly log: Logger,
  ) {
    for (const event of events) this.hold(event, `${JSON.stringify(event)}\n`);
    this.durable = this.held.length;
    const newest = events.at(-1)?.seq ?? 0;
    this.nextSeq = Math.max(newest, state.acked) + 1;
  }

  /** Opens (or creates) the outbox in `dir`; the log is rewritten without acknowledged or torn lines. */
  static async open(options: OutboxOptions): Promise<Outbox> {
    const files = outboxFiles(options.dir);
    const state = await readState(files);
    const events = (await readLog(files)).filter((e) => e.seq > state.acked);
    const outbox = new Outbox(files, state, events, options.maxBytes ?? OUTBOX_MAX_BYTES, options.log);
    await outbox.rewrite();
    return outbox;
  }

  get id(): string {
    return this.state.id;
  }

  /** Adds an event (sequence number now, on disk with the next batch); refused and counted beyond the bound. */
  append(input: NodeEventInput): void {
    if (this.closed) return;
    const time = input.time ?? Date.now();
    let event: NodeEvent = { ...input, time, seq: this.nextSeq };
    let line = `${JSON.stringify(event)}\n`;
    if (Buffer.byteLength(line) > OUTBOX_EVENT_MAX_BYTES) {
      event = { ...event, details: { truncated: true } };
      line = `${JSON.stringify(event)}\n`;
    }
    if (this.heldBytes + Buffer.byteLength(line) > this.maxBytes) {
      const dropped = this.state.dropped;
      this.state.dropped = { count: (dropped?.count ?? 0) + 1, since: dropped?.since ?? time, until: time };
      this.stateDirty = true;
      this.schedule();
      return;
    }
    this.nextSeq++;
    this.hold(event, line);
    this.schedule();
  }

  /** Fsync'd events after `after`, at most `limit`, oldest first. */
  page(after: number, limit: number): NodeEventsPage {
    const events: NodeEvent[] = [];
    for (let i = 0; i < this.durable && events.length < limit; i++) {
      const event = this.held[i]?.event;
      if (event && event.seq > after) events.push(event);
    }
    return { outbox: this.state.id, events, last: this.nextSeq - 1 };
  }

  /** The panel recorded every event up to `seq`: they are forgotten, on disk too, before this resolves. */
  ack(outbox: string, seq: number): Promise<void> {
    if (outbox !== this.state.id) return Promise.reject(new OutboxAckError('outbox'));
    if (seq > this.nextSeq - 1) return Promise.reject(new OutboxAckError('seq'));
    return this.enqueue(async () => {
      if (seq <= this.state.acked) return;
      let cut = 0;
      while (cut < this.durable && (this.held[cut]?.event.seq ?? Infinity) <= seq) cut++;
      this.state = { ...this.state, acked: seq };
      await writeState(this.files, this.state);
      for (const gone of this.held.slice(0, cut)) this.heldBytes -= Buffer.byteLength(gone.line);
      this.held = this.held.slice(cut);
      this.durable -= cut;
      await this.rewrite();
      this.noteDropped();
    });
  }

  /** Resolves once everything appended so far is on disk. */
  flush(): Promise<void> {
    return this.enqueue(() => this.writeBatch());
  }

  /** Writes what is pending; appends after this are ignored. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  /** Bytes of unacknowledged events held (for the bound and its tests). */
  bytes(): number {
    return this.heldBytes;
  }

  private hold(event: NodeEvent, line: string): void {
    this.held.push({ event, line });
    this.heldBytes += Buffer.byteLength(line);
  }

  /** Once room is back, the events refused at the bound are told by one marker event. */
  private noteDropped(): void {
    const dropped = this.state.dropped;
    if (!dropped) return;
    const marker: NodeEvent = {
      seq: this.nextSeq,
      time: dropped.until,
      action: 'node.events.dropped',
      serverId: null,
      actor: { type: 'system', id: null, label: 'node' },
      ip: null,
      details: { count: dropped.count, since: dropped.since, until: dropped.until },
    };
    const line = `${JSON.stringify(marker)}\n`;
    if (this.heldBytes + Buffer.byteLength(line) > this.maxBytes) return;
    this.nextSeq++;
    this.hold(marker, line);
    this.state = { ...this.state, dropped: null };
    this.stateDirty = true;
    this.schedule();
  }

  /** One batch at a time: appends made while a batch is written go into the next one. */
  private schedule(): void {
    if (this.writing) return;
    this.writing = true;
    void this.enqueue(() => this.writeBatch()).catch((err: unknown) =>
      this.log.error({ err }, 'node outbox: events not written (kept in memory, retried with the next)'),
    );
  }

  private async writeBatch(): Promise<void> {
    this.writing = false;
    this.noteDropped();
    const pending = this.held.slice(this.durable);
    if (pending.length > 0)
      await appendLines(
        this.files,
        pending.map((h) => h.line),
      );
    this.durable += pending.length;
    // The count of refused events survives a restart of the daemon (the marker is written when room is back).
    if (this.stateDirty) {
      this.stateDirty = false;
      await writeState(this.files, this.state);
    }
  }

  /** The log with just the held events (after an acknowledgement, and at open to drop a torn line). */
  private async rewrite(): Promise<void> {
    const lines = this.held.slice(0, this.durable).map((h) => h.line);
    await replaceFile(this.files.dir, this.files.log, lines.join(''));
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
