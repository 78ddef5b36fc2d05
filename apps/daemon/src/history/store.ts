/**
 * Per-server history on disk (docs/daemon.md § Metric history): a fixed-size ring file rewritten atomically
 * (temp + rename) and a journal of the minutes since, appended once a minute. Nothing stays in memory between
 * calls: a node with 1,000 servers holds no history until a chart asks for one, and a minute's work per server is
 * one 20-byte append. The journal is folded into the ring file after COMPACT_AFTER minutes, one server at a time.
 */
import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HistoryRange, HistoryResponse } from '@hearth/contract';
import { decodeRecords, decodeSeries, encodeRecord, encodeSeries, RECORD_BYTES } from './codec';
import { Series, type Point } from './series';

/** Six hours of minutes: the journal stays under 7.2 KB and the ring file is rewritten four times a day. */
export const COMPACT_AFTER = 360;

async function readOrNull(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export class HistoryStore {
  /** Journal records per server since its last compaction (read from the journal's size on first use). */
  private readonly journalRecords = new Map<string, number>();
  /** One chain per server: its appends, compactions and removal never interleave. */
  private readonly chains = new Map<string, Promise<unknown>>();
  /** Compactions run one at a time across servers (a burst of rewrites would compete with the games' I/O). */
  private compactions: Promise<unknown> = Promise.resolve();

  constructor(readonly dir: string) {}

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  private paths(id: string) {
    return { file: join(this.dir, `${id}.hist`), journal: join(this.dir, `${id}.journal`) };
  }

  private queue<T>(id: string, work: () => Promise<T>): Promise<T> {
    const next = (this.chains.get(id) ?? Promise.resolve()).then(work, work);
    const settled = next.catch(() => undefined);
    this.chains.set(id, settled);
    void settled.then(() => {
      if (this.chains.get(id) === settled) this.chains.delete(id);
    });
    return next;
  }

  /** The ring file with the journal replayed over it (an unreadable file counts as empty, never fatal). */
  async load(id: string): Promise<Series> {
    const { file, journal } = this.paths(id);
    const series = decodeSeries((await readOrNull(file)) ?? Buffer.alloc(0)) ?? new Series();
    const records = await readOrNull(journal);
    if (records) for (const { minute, point } of decodeRecords(records)) series.put(minute, point);
    return series;
  }

  /** Appends one minute's point; folds the journal into the ring file once it is long enough. */
  record(id: string, minute: number, point: Point): Promise<void> {
    return this.queue(id, async () => {
      const { journal } = this.paths(id);
      let count = this.journalRecords.get(id);
      if (count === undefined) {
        const size = await stat(journal).then(
          (s) => s.size,
          () => 0,
        );
        count = Math.floor(size / RECORD_BYTES);
        // A torn tail from a crash would shift every later record: fold it away before appending.
        if (size % RECORD_BYTES !== 0) count = COMPACT_AFTER;
      }
      if (count >= COMPACT_AFTER) {
        await this.compact(id);
        count = 0;
      }
      await appendFile(journal, encodeRecord(minute, point), { mode: 0o600 });
      this.journalRecords.set(id, count + 1);
    });
  }

  /** The newest journal record (the last minute written, whatever compacted before it); null without one. */
  async lastRecord(id: string): Promise<{ minute: number; point: Point } | null> {
    const records = await readOrNull(this.paths(id).journal);
    if (!records || records.length < RECORD_BYTES) return null;
    const whole = records.length - (records.length % RECORD_BYTES);
    for (const record of decodeRecords(records.subarray(whole - RECORD_BYTES, whole))) return record;
    return null;
  }

  /** Ring file rewritten (temp + rename), then the journal emptied; a crash between replays it harmlessly. */
  private compact(id: string): Promise<void> {
    const run = this.compactions.then(async () => {
      const { file, journal } = this.paths(id);
      const bytes = encodeSeries(await this.load(id));
      const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      await writeFile(temp, bytes, { mode: 0o600 });
      await rename(temp, file);
      await writeFile(journal, Buffer.alloc(0), { mode: 0o600 });
    });
    this.compactions = run.catch(() => undefined);
    return run;
  }

  read(id: string, range: HistoryRange, nowMs: number, live: Point | null): Promise<HistoryResponse> {
    return this.queue(id, async () => (await this.load(id)).read(range, nowMs, live));
  }

  /** A deleted server's history goes with it. */
  remove(id: string): Promise<void> {
    return this.queue(id, async () => {
      const { file, journal } = this.paths(id);
      this.journalRecords.delete(id);
      await rm(file, { force: true });
      await rm(journal, { force: true });
    });
  }

  /** Bytes on disk for one server (the ring file and its journal); the benchmark reports it. */
  async bytesOf(id: string): Promise<number> {
    const { file, journal } = this.paths(id);
    const size = (path: string) =>
      stat(path).then(
        (s) => s.size,
        () => 0,
      );
    return (await size(file)) + (await size(journal));
  }

  /** Waits for every pending write (daemon close). */
  async settle(): Promise<void> {
    await Promise.all([...this.chains.values()]);
    await this.compactions;
  }
}
