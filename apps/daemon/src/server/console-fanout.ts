/**
 * Fan-out of console output to subscribers (sockets), coalesced per tick with per-subscriber backpressure:
 * a subscriber whose transport is congested keeps a bounded queue; beyond it the oldest output is dropped and
 * the next message says how many bytes were lost. A slow subscriber never slows the daemon or the others.
 *
 * The work per event-loop turn is bounded so a flood cannot make the daemon unresponsive to its API: one
 * message carries at most MESSAGE_BYTES of output, one flush pass sends at most PASS_BYTES in total, and the
 * rest continues after `setImmediate` (I/O such as a status request runs in between) instead of in one loop.
 */
import type { ConsoleEventData } from '@hearth/contract';
import type { ConsoleChunk } from './console-log';

export interface ConsoleSubscriber {
  /** Receives a serialized `{"type":"console","data":{logs,epoch,dropped?}}` message. */
  send(message: string): void;
  /** True while the transport has more unsent data than it should (e.g. ws.bufferedAmount over a limit). */
  congested(): boolean;
}

/** Output per message; a subscriber with more queued gets several messages, in later turns. */
export const MESSAGE_BYTES = 256 * 1024;
/** Output sent per flush pass over all subscribers before yielding the event loop. */
export const PASS_BYTES = 1024 * 1024;

/** A subscriber's queue: chunks[head..] are pending (a head index, so dropping the oldest is O(1)). */
interface Entry {
  chunks: ConsoleChunk[];
  head: number;
  queuedBytes: number;
  dropped: number;
}

function pending(entry: Entry): boolean {
  return entry.head < entry.chunks.length;
}

/** Takes up to MESSAGE_BYTES (at least one chunk) off the queue; returns the taken range. */
function take(entry: Entry): { from: number; to: number; bytes: number } {
  const from = entry.head;
  let to = from;
  let bytes = 0;
  while (
    to < entry.chunks.length &&
    (to === from || bytes + (entry.chunks[to]?.bytes ?? 0) <= MESSAGE_BYTES)
  ) {
    bytes += entry.chunks[to]?.bytes ?? 0;
    to++;
  }
  entry.head = to;
  entry.queuedBytes -= bytes;
  if (to === entry.chunks.length) {
    entry.chunks = [];
    entry.head = 0;
  }
  return { from, to, bytes };
}

function serialize(chunks: ConsoleChunk[], dropped: number): string {
  const data: ConsoleEventData = { logs: chunks.map((c) => c.text), epoch: chunks.at(-1)?.epoch ?? 0 };
  if (dropped > 0) data.dropped = dropped;
  return JSON.stringify({ type: 'console', data });
}

export class ConsoleFanout {
  private readonly entries = new Map<ConsoleSubscriber, Entry>();
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  /** Bytes dropped for slow subscribers since the daemon started (all subscribers; /metrics). */
  droppedBytes = 0;

  constructor(
    private readonly tickMs: number,
    private readonly maxQueueBytes: number,
  ) {}

  subscribe(subscriber: ConsoleSubscriber): () => void {
    this.entries.set(subscriber, { chunks: [], head: 0, queuedBytes: 0, dropped: 0 });
    return () => void this.entries.delete(subscriber);
  }

  count(): number {
    return this.entries.size;
  }

  publish(chunk: ConsoleChunk): void {
    if (this.entries.size === 0) return;
    for (const entry of this.entries.values()) {
      entry.chunks.push(chunk);
      entry.queuedBytes += chunk.bytes;
      while (entry.queuedBytes > this.maxQueueBytes && entry.chunks.length - entry.head > 1) {
        const lost = entry.chunks[entry.head++]?.bytes ?? 0;
        entry.queuedBytes -= lost;
        entry.dropped += lost;
        this.droppedBytes += lost;
      }
      if (entry.head > 1024 && entry.head * 2 > entry.chunks.length) {
        entry.chunks = entry.chunks.slice(entry.head);
        entry.head = 0;
      }
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.immediate) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.tickMs);
  }

  /**
   * One pass: each subscriber that is not congested gets one message (its oldest MESSAGE_BYTES), until
   * PASS_BYTES went out. Subscribers in step receive the same range, so its JSON is built once for all of them.
   * Whatever is left continues on the next turn (setImmediate) or, if only congested subscribers wait, next tick.
   */
  flush(): void {
    this.immediate = null;
    let budget = PASS_BYTES;
    let more = false;
    let congested = false;
    const serialized = new Map<string, string>();
    for (const [subscriber, entry] of this.entries) {
      if (!pending(entry)) continue;
      if (budget <= 0) {
        more = true;
        continue;
      }
      if (subscriber.congested()) {
        congested = true;
        continue;
      }
      const dropped = entry.dropped;
      const chunks = entry.chunks;
      const { from, to, bytes } = take(entry);
      entry.dropped = 0;
      const key = `${chunks[from]?.epoch}:${chunks[to - 1]?.epoch}:${dropped}`;
      let message = serialized.get(key);
      if (message === undefined) {
        message = serialize(chunks.slice(from, to), dropped);
        serialized.set(key, message);
        budget -= bytes; // serialization is the cost; a cached message is nearly free to send again
      }
      subscriber.send(message);
      if (pending(entry)) more = true;
    }
    this.rotate();
    if (more) this.immediate = setImmediate(() => this.flush());
    else if (congested) this.schedule();
  }

  /** Moves the first subscriber to the end, so a pass that runs out of budget does not favour the same ones. */
  private rotate(): void {
    const first = this.entries.entries().next();
    if (first.done || this.entries.size < 2) return;
    this.entries.delete(first.value[0]);
    this.entries.set(first.value[0], first.value[1]);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    this.entries.clear();
  }
}
