/**
 * Schedules through croner, in the node's configured time zone. The shared contract validator decides what
 * is accepted (so the web editor and the daemon agree); croner then computes the runs.
 */
import { Cron } from 'croner';
import { AppError, cronError, normalizeCron } from '@hearth/contract';
import type { OwnerAccess } from '../panel-link/owner-access';

export interface CronSettings {
  /** IANA zone schedules are read in; empty = the system zone. */
  timeZone: string;
  /** Test switch: 6-field (per-second) schedules. */
  allowSeconds: boolean;
}

export interface TaskSettings extends CronSettings {
  /** The task owner's current access, asked of the panel before each step (docs/daemon.md § Tasks). */
  ownerAccess: OwnerAccess;
}

/** The schedule to store (trimmed; blank → null = manual only), or ErrInvalidCron. */
export function checkSchedule(expression: string | null, settings: CronSettings): string | null {
  const reason = cronError(expression, { allowSeconds: settings.allowSeconds });
  if (reason) throw new AppError('ErrInvalidCron', { cronSchedule: expression ?? '', reason });
  const text = expression?.trim() ?? '';
  return text === '' ? null : text;
}

function croner(expression: string, settings: CronSettings, fire?: () => void): Cron {
  const pattern = normalizeCron(expression) ?? '';
  const options = { timezone: settings.timeZone || undefined, paused: !fire };
  try {
    return fire ? new Cron(pattern, options, fire) : new Cron(pattern, options);
  } catch (err) {
    // The validator and croner disagree only on exotic input (e.g. 31 in a 30-day-only month list).
    const reason = err instanceof Error ? err.message : String(err);
    throw new AppError('ErrInvalidCron', { cronSchedule: expression, reason }, { cause: err });
  }
}

/** Starts a job calling `fire` at every due time; `stop()` it when the task changes or goes away. */
export function scheduleJob(expression: string, settings: CronSettings, fire: () => void): Cron {
  return croner(expression, settings, fire);
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
