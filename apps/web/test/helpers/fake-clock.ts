import type { Clock } from '../../src/api/live-socket';

interface Timer {
  at: number;
  fn: () => void;
  every?: number;
}

/** A manual clock: timers fire only inside `advance`, in time order. */
export class FakeClock implements Clock {
  now = 0;
  private nextId = 1;
  private readonly timers = new Map<number, Timer>();

  setTimeout(fn: () => void, ms: number): number {
    const id = this.nextId++;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  }

  setInterval(fn: () => void, ms: number): number {
    const id = this.nextId++;
    this.timers.set(id, { at: this.now + ms, fn, every: ms });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  clearInterval(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  pending(): number {
    return this.timers.size;
  }

  advance(ms: number): void {
    const target = this.now + ms;
    for (;;) {
      let nextId: number | undefined;
      let next: Timer | undefined;
      for (const [id, timer] of this.timers) {
        if (timer.at <= target && (!next || timer.at < next.at)) [nextId, next] = [id, timer];
      }
      if (!next || nextId === undefined) break;
      this.now = next.at;
      if (next.every) next.at += next.every;
      else this.timers.delete(nextId);
      next.fn();
    }
    this.now = target;
  }
}
