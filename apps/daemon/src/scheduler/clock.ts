/**
 * The time the task scheduler lives in: the current instant and one-shot alarms at an instant. The daemon's
 * composition root gives it the system clock; croner still computes every due time (cron-job.ts), the clock only
 * says what "now" is and wakes the job when a due time comes (docs/daemon.md § Tasks).
 */
export interface SchedulerClock {
  /** Unix milliseconds. */
  now(): number;
  /** Calls `fire` once, when the clock reaches `at` (unix ms) or later; the returned function cancels it. */
  alarm(at: number, fire: () => void): () => void;
}

/** setTimeout's longest delay; a later alarm is re-armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Wall-clock time; an alarm re-checks the time when its timer wakes (a timer may wake a little early). */
export const systemClock: SchedulerClock = {
  now: () => Date.now(),
  alarm(at, fire) {
    let timer: NodeJS.Timeout | null = null;
    // Never fires synchronously: the caller holds the cancel function before its job can run.
    const arm = () => {
      timer = setTimeout(wake, Math.max(0, Math.min(at - Date.now(), MAX_TIMER_MS)));
    };
    const wake = () => {
      if (Date.now() < at) return arm();
      timer = null;
      fire();
    };
    arm();
    return () => {
      if (timer) clearTimeout(timer);
      timer = null;
    };
  },
};
