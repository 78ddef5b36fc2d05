/**
 * Positional reads and writes on one open file's descriptor for the SFTP session. OpenSSH's client keeps up to
 * 64 requests of 32 KiB in flight; one thread-pool round trip each costs more than the copy itself, so requests
 * that arrive while one is in flight are queued and the contiguous ones served by a single `read`/`writev`
 * (up to BATCH_BYTES). One operation in flight per file and direction also keeps overlapping writes in order.
 */
import { read, writev } from 'node:fs';

const BATCH_BYTES = 1024 * 1024;

type ReadDone = (err: Error | null, data: Buffer | null) => void;
type WriteDone = (err: Error | null) => void;

interface PendingRead {
  offset: number;
  length: number;
  done: ReadDone;
}

interface PendingWrite {
  offset: number;
  data: Buffer;
  done: WriteDone;
}

/** The longest prefix of `queue` whose items follow each other in the file, within BATCH_BYTES. */
function contiguous<T extends { offset: number }>(queue: T[], size: (item: T) => number): T[] {
  const first = queue[0];
  if (!first) return [];
  let end = first.offset + size(first);
  let count = 1;
  for (let i = 1; i < queue.length; i += 1) {
    const item = queue[i] as T;
    if (item.offset !== end || end + size(item) - first.offset > BATCH_BYTES) break;
    end += size(item);
    count += 1;
  }
  return queue.splice(0, count);
}

export class FileIo {
  private readonly reads: PendingRead[] = [];
  private readonly writes: PendingWrite[] = [];
  private reading = false;
  private writing = false;
  private idleWaiters: (() => void)[] = [];

  /** `together` runs the replies of one batch so that they leave in one socket write (see server.ts). */
  constructor(
    private readonly fd: number,
    private readonly together: (replies: () => void) => void = (replies) => replies(),
  ) {}

  /** `data` is null at end of file; it may be shorter than `length` (SFTP allows short reads). */
  read(offset: number, length: number, done: ReadDone): void {
    this.reads.push({ offset, length, done });
    if (!this.reading) this.nextRead();
  }

  write(offset: number, data: Buffer, done: WriteDone): void {
    this.writes.push({ offset, data, done });
    if (!this.writing) this.nextWrite();
  }

  /** Resolves once no operation is in flight: the descriptor may then be closed (it could be reused at once). */
  idle(): Promise<void> {
    if (!this.reading && !this.writing) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private settled(): void {
    if (this.reading || this.writing) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private nextRead(): void {
    const batch = contiguous(this.reads, (r) => r.length);
    const start = batch[0];
    if (!start) {
      this.reading = false;
      return this.settled();
    }
    this.reading = true;
    const total = batch.reduce((sum, r) => sum + r.length, 0);
    const buf = Buffer.allocUnsafe(total); // only the bytes read are sent
    read(this.fd, buf, 0, total, start.offset, (err, bytesRead) => {
      this.together(() => {
        for (const r of batch) {
          const from = r.offset - start.offset;
          const to = Math.min(from + r.length, bytesRead);
          r.done(err, err || to <= from ? null : buf.subarray(from, to));
        }
      });
      this.nextRead();
    });
  }

  private nextWrite(): void {
    const batch = contiguous(this.writes, (w) => w.data.length);
    const start = batch[0];
    if (!start) {
      this.writing = false;
      return this.settled();
    }
    this.writing = true;
    writev(
      this.fd,
      batch.map((w) => w.data),
      start.offset,
      (err, written) => {
        this.together(() => {
          if (err) for (const w of batch) w.done(err);
          else this.settleWrites(batch, written);
        });
        this.nextWrite();
      },
    );
  }

  /** A short writev: the fully written requests are done, the rest go back to the front of the queue. */
  private settleWrites(batch: PendingWrite[], written: number): void {
    if (written === 0) {
      const err = new Error('no bytes written');
      for (const w of batch) w.done(err);
      return;
    }
    let left = written;
    const rest: PendingWrite[] = [];
    for (const w of batch) {
      if (left >= w.data.length) {
        left -= w.data.length;
        w.done(null);
      } else {
        rest.push(left > 0 ? { ...w, offset: w.offset + left, data: w.data.subarray(left) } : w);
        left = 0;
      }
    }
    this.writes.unshift(...rest);
  }
}
