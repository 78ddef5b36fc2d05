/** Schedules whose days never come are refused by the shared validator (cron-fires.ts). */
import { describe, expect, it } from 'vitest';
import { cronError } from '../src/cron';

describe('schedules that never fire', () => {
  it.each([
    '0 0 31 2 *',
    '0 0 30 2 *',
    '0 0 30,31 FEB *',
    '0 0 31 4,6,9,11 *',
    '0 0 31 APR-APR *',
    '0 0 30-31 2 ?',
  ])('refuses %j', (expression) => {
    expect(cronError(expression)).toContain('never fires');
  });

  it.each([
    '0 0 29 2 *', // leap years
    '0 0 31 1-2 *', // January has a 31st
    '0 0 31 */2 *', // January, March, …
    '0 0 31 2 MON', // day of month OR day of week: every Monday in February
    '0 0 28-31 2 *',
    '0 0 */10 2 *',
    '0 0 31 * *',
    '0 0 * 2 *',
  ])('accepts %j', (expression) => {
    expect(cronError(expression)).toBeNull();
  });
});
