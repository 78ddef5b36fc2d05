/** Per-socket message rate (fixed one-second window) and per-server socket count. */
export class RateWindow {
  private windowStart = 0;
  private count = 0;

  constructor(private readonly perSecond: number) {}

  /** True if one more message fits in the current second. */
  take(now = Date.now()): boolean {
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.count = 0;
    }
    this.count++;
    return this.count <= this.perSecond;
  }
}

export class SocketCounter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Takes a slot for `id`; returns the release function, or null when the server has no slot left. */
  acquire(id: string): (() => void) | null {
    const count = this.counts.get(id) ?? 0;
    if (count >= this.max) return null;
    this.counts.set(id, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.counts.get(id) ?? 1) - 1;
      if (left <= 0) this.counts.delete(id);
      else this.counts.set(id, left);
    };
  }
}
