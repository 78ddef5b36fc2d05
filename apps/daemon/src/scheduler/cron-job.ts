/**
 * One scheduled task's job: croner computes each due time in the node's zone, the scheduler's clock wakes the
 * job then. After a run is due the next one is computed from that moment (or from now, when the wake-up came
 * late: runs missed while the machine slept are not caught up in a burst).
 */
import type { Cron } from 'croner';
import type { SchedulerClock } from './clock';

export class CronJob {
  private next: Date | null = null;
  private cancel: (() => void) | null = null;
  private stopped = false;

  constructor(
    private readonly cron: Cron,
    private readonly clock: SchedulerClock,
    private readonly fire: () => void,
  ) {
    this.arm(clock.now());
  }

  /** When the job fires next (null when the schedule never fires again, or the job was stopped). */
  nextRun(): Date | null {
    return this.next;
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
    this.cancel = null;
    this.next = null;
    this.cron.stop();
  }

  private arm(from: number): void {
    const next = this.cron.nextRun(new Date(from));
    this.next = next;
    if (!next) return;
    const due = next.getTime();
    this.cancel = this.clock.alarm(due, () => {
      if (this.stopped) return;
      this.arm(Math.max(due, this.clock.now()));
      this.fire();
    });
  }
}
