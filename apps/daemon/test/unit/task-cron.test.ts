/** Task schedules in the node's time zone (croner); per-second schedules are refused. */
import { describe, expect, it } from 'vitest';
import { checkSchedule, nextRunOf } from '../../src/scheduler/cron';

const inZone = (timeZone: string) => ({ timeZone });

describe('task schedules', () => {
  it('computes the next run in the configured time zone, daylight saving included', () => {
    const winter = new Date('2024-01-10T12:00:00Z');
    const summer = new Date('2024-07-10T12:00:00Z');
    expect(nextRunOf('0 4 * * *', inZone('America/New_York'), winter)?.toISOString()).toBe(
      '2024-01-11T09:00:00.000Z',
    );
    expect(nextRunOf('0 4 * * *', inZone('America/New_York'), summer)?.toISOString()).toBe(
      '2024-07-11T08:00:00.000Z',
    );
    expect(nextRunOf('0 4 * * *', inZone('Asia/Tokyo'), winter)?.toISOString()).toBe(
      '2024-01-10T19:00:00.000Z',
    );
    expect(nextRunOf('30 0 * * 1', inZone('UTC'), winter)?.toISOString()).toBe('2024-01-15T00:30:00.000Z');
  });

  it('reads aliases, ? and the default expression', () => {
    const from = new Date('2024-01-10T12:00:00Z');
    expect(nextRunOf('@daily', inZone('UTC'), from)?.toISOString()).toBe('2024-01-11T00:00:00.000Z');
    expect(nextRunOf('0 4 ? * *', inZone('UTC'), from)?.toISOString()).toBe('2024-01-11T04:00:00.000Z');
    expect(nextRunOf('0 0 */1 * *', inZone('UTC'), from)?.toISOString()).toBe('2024-01-11T00:00:00.000Z');
  });

  it('stores blank as manual and refuses invalid or per-second schedules', () => {
    expect(checkSchedule('  ')).toBeNull();
    expect(checkSchedule(' 0 4 * * * ')).toBe('0 4 * * *');
    for (const expression of ['0 4 * * 9', '* * * * * *', '0 0 4 * * *']) {
      expect(() => checkSchedule(expression), expression).toThrow(
        expect.objectContaining({ code: 'ErrInvalidCron' }),
      );
    }
  });
});
