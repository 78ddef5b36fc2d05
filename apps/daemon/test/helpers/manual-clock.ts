/**
 * A scheduler clock the test moves by hand (apps/daemon/src/scheduler/clock.ts): schedules stay real 5-field cron
 * computed by croner, and a job fires exactly when the test moves time across its due instant — not before.
 */
import type { SchedulerClock } from '../../src/scheduler/clock';

interface Alarm {
  at: number;
  fire: () => void;
}

export class ManualClock implements SchedulerClock {
  private readonly alarms = new Set<Alarm>();

  constructor(private at: number = Date.now()) {}

  now(): number {
    return this.at;
  }

  alarm(at: number, fire: () => void): () => void {
    const alarm = { at, fire };
    this.alarms.add(alarm);
    return () => void this.alarms.delete(alarm);
  }

  /** Alarms still waiting (stopped jobs cancel theirs). */
  pending(): number {
    return this.alarms.size;
  }

  /** The earliest waiting alarm's instant, if any. */
  nextAlarm(): number | undefined {
    return this.earliest()?.at;
  }

  /**
   * Moves time to `to`, firing on the way every alarm due by then, earliest first, each at its own instant
   * (an alarm a fired job sets within the span fires too). Time never goes back.
   */
  advanceTo(to: number): void {
    for (let alarm = this.earliest(); alarm && alarm.at <= to; alarm = this.earliest()) {
      this.alarms.delete(alarm);
      this.at = Math.max(this.at, alarm.at);
      alarm.fire();
    }
    this.at = Math.max(this.at, to);
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.at + ms);
  }

  /** The next whole minute after now (where `* * * * *` is due), in unix ms. */
  nextMinute(): number {
    return (Math.floor(this.at / 60_000) + 1) * 60_000;
  }

  private earliest(): Alarm | undefined {
    let first: Alarm | undefined;
    for (const alarm of this.alarms) if (!first || alarm.at < first.at) first = alarm;
    return first;
  }
}
