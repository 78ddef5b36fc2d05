/**
 * A server's console history: chunks of text stamped with a millisecond epoch, bounded in bytes (oldest
 * evicted first). Epochs are strictly increasing, so `since(lastSeenEpoch)` never misses or repeats a chunk
 * (PufferPanel stamps in seconds and compares strictly, losing chunks of the same second).
 */
export interface ConsoleChunk {
  epoch: number;
  text: string;
  bytes: number;
}

export class ConsoleLog {
  private chunks: ConsoleChunk[] = [];
  private head = 0;
  private totalBytes = 0;
  private lastEpoch = 0;

  constructor(private readonly maxBytes: number) {}

  append(text: string, now = Date.now()): ConsoleChunk {
    const epoch = now > this.lastEpoch ? now : this.lastEpoch + 1;
    this.lastEpoch = epoch;
    const chunk = { epoch, text, bytes: Buffer.byteLength(text) };
    this.chunks.push(chunk);
    this.totalBytes += chunk.bytes;
    this.evict();
    return chunk;
  }

  private evict(): void {
    while (this.totalBytes > this.maxBytes && this.head < this.chunks.length - 1) {
      this.totalBytes -= this.chunks[this.head]?.bytes ?? 0;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }

  /** Chunks with an epoch greater than `epoch`, oldest first. */
  since(epoch: number): ConsoleChunk[] {
    let lo = this.head;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.chunks[mid]?.epoch ?? 0) <= epoch) lo = mid + 1;
      else hi = mid;
    }
    return this.chunks.slice(lo);
  }

  /** The newest epoch handed out (0 when empty). */
  latestEpoch(): number {
    return this.lastEpoch;
  }

  bytes(): number {
    return this.totalBytes;
  }

  clear(): void {
    this.chunks = [];
    this.head = 0;
    this.totalBytes = 0;
  }
}
