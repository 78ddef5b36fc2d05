/**
 * The shared validator's "never fires" verdict agrees with croner's own next-run computation (the engine that runs
 * the tasks), and the daemon's schedule check refuses such a schedule with ErrInvalidCron.
 */
import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import { cronError, isAppError, normalizeCron } from '@hearth/contract';
import { checkSchedule } from '../../src/scheduler/cron';

function cronerFires(expression: string): boolean {
  const job = new Cron(normalizeCron(expression) ?? '', { paused: true, timezone: 'UTC' });
  try {
    return job.nextRun(new Date('2026-01-01T00:00:00Z')) !== null;
  } finally {
    job.stop();
  }
}

describe('never-firing schedules', () => {
  it('the validator and croner agree on every day-of-month × month pair', () => {
    const months = ['1', '2', '4', '2,4', '4,6,9,11', '*/2', '2-3'];
    const days = ['28', '29', '30', '31', '30,31', '30-31', '*/15', '29-31/2'];
    for (const month of months)
      for (const day of days) {
        const expression = `0 0 ${day} ${month} *`;
        expect(cronError(expression) === null, expression).toBe(cronerFires(expression));
      }
  });

  it('the daemon refuses `0 0 31 2 *` with ErrInvalidCron and keeps valid ones', () => {
    let caught: unknown = null;
    try {
      checkSchedule('0 0 31 2 *');
    } catch (err) {
      caught = err;
    }
    expect(isAppError(caught) && caught.code).toBe('ErrInvalidCron');
    expect(checkSchedule('0 0 29 2 *')).toBe('0 0 29 2 *');
  });
});
