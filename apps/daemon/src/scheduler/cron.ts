/**
 * Schedules through croner, in the node's configured time zone. The shared contract validator decides what
 * is accepted (so the web editor and the daemon agree: five fields or an alias, never per-second); croner
 * then computes the runs, and the scheduler's clock (clock.ts) wakes each job when its run is due.
 */
import { Cron } from 'croner';
import { AppError, cronError, normalizeCron } from '@hearth/contract';
import type { OwnerAccess } from '../panel-link/owner-access';
import type { SchedulerClock } from './clock';
import { CronJob } from './cron-job';

export interface CronSettings {
  /** IANA zone schedules are read in; empty = the system zone. */
  timeZone: string;
}

export interface TaskSettings extends CronSettings {
  /** The task owner's current access, asked of the panel before each step (docs/daemon.md § Tasks). */
  ownerAccess: OwnerAccess;
  /** What "now" is and when a due run wakes up: the system clock, given by the composition root (daemon.ts). */
  clock: SchedulerClock;
}

/** The schedule to store (trimmed; blank → null = manual only), or ErrInvalidCron. */
export function checkSchedule(expression: string | null): string | null {
  const reason = cronError(expression);
  if (reason) throw new AppError('ErrInvalidCron', { cronSchedule: expression ?? '', reason });
  const text = expression?.trim() ?? '';
  return text === '' ? null : text;
}

/** A paused croner job: it only computes due times (the clock, not croner's timers, wakes the task). */
function croner(expression: string, settings: CronSettings): Cron {
  const pattern = normalizeCron(expression) ?? '';
  try {
    return new Cron(pattern, { timezone: settings.timeZone || undefined, paused: true });
  } catch (err) {
    // The validator and croner disagree only on exotic input (e.g. 31 in a 30-day-only month list).
    const reason = err instanceof Error ? err.message : String(err);
    throw new AppError('ErrInvalidCron', { cronSchedule: expression, reason }, { cause: err });
  }
}

/** Starts a job calling `fire` at every due time; `stop()` it when the task changes or goes away. */
export function scheduleJob(expression: string, settings: TaskSettings, fire: () => void): CronJob {
  return new CronJob(croner(expression, settings), settings.clock, fire);
}

/** The first run strictly after `from` (null when the schedule never fires again). */
export function nextRunOf(expression: string, settings: CronSettings, from = new Date()): Date | null {
  const job = croner(expression, settings);
  try {
    return job.nextRun(from);
  } finally {
    job.stop();
  }
}
