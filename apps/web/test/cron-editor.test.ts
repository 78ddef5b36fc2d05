/** The schedule editor's conversions: every mode, round trips, defaults, language. */
import { describe, expect, it } from 'vitest';
import { isValidCron } from '@hearth/contract';
import {
  fromExpression,
  initialCronState,
  switchMode,
  toExpression,
  toggleWeekday,
  type CronState,
} from '../src/components/cron/cron-model';
import { cronLocaleOf, describeCron } from '../src/components/cron/describe';

const state = (over: Partial<CronState>): CronState => ({ ...initialCronState, ...over });

describe('cron editor model', () => {
  it('starts in Daily at 00:00, every 1 day, any month, all weekdays: the default expression', () => {
    expect(initialCronState).toMatchObject({
      mode: 'daily',
      minute: 0,
      hour: 0,
      day: 1,
      month: '*',
      weekdays: [0, 1, 2, 3, 4, 5, 6],
    });
    expect(toExpression(initialCronState)).toBe('0 0 */1 * *');
    expect(fromExpression('0 0 */1 * *')).toMatchObject({ mode: 'daily', minute: 0, hour: 0, day: 1 });
  });

  it.each([
    ['hourly', state({ mode: 'hourly', minute: 15, hour: 3 }), '15 */3 * * ?'],
    ['daily', state({ mode: 'daily', minute: 30, hour: 4, day: 2 }), '30 4 */2 * *'],
    ['weekly', state({ mode: 'weekly', minute: 5, hour: 22, weekdays: [6, 0, 3] }), '5 22 * * 0,3,6'],
    ['monthly', state({ mode: 'monthly', minute: 0, hour: 6, day: 15, month: 3 }), '0 6 15 */3 *'],
    ['advanced', state({ mode: 'advanced', expression: ' 0 4 ? * MON-FRI ' }), '0 4 ? * MON-FRI'],
  ])('%s: fields → expression → fields', (mode, fields, expression) => {
    expect(toExpression(fields)).toBe(expression);
    expect(isValidCron(expression)).toBe(true);
    const back = fromExpression(expression);
    expect(back.mode).toBe(mode);
    expect(toExpression(back)).toBe(expression);
    if (mode !== 'advanced') {
      const { expression: _ignored, ...rest } = back;
      expect(rest).toMatchObject({ minute: fields.minute, hour: fields.hour, mode });
    }
  });

  it('derives the mode of existing expressions, Advanced when none fits', () => {
    expect(fromExpression('0 */1 * * ?')).toMatchObject({ mode: 'hourly', hour: 1 });
    expect(fromExpression('0 */2 * * *')).toMatchObject({ mode: 'hourly', hour: 2 });
    expect(fromExpression('0 4 * * *')).toMatchObject({ mode: 'daily', hour: 4, day: 1 });
    expect(fromExpression('0 12 ? * 1,5')).toMatchObject({ mode: 'weekly', weekdays: [1, 5] });
    expect(fromExpression('0 12 1 */1 ?')).toMatchObject({ mode: 'monthly', day: 1, month: 1 });
    for (const text of [
      '@daily',
      '0 4 * * MON',
      '0 25 */1 * *',
      '*/5 * * * *',
      '0 0 1 1 *',
      'nonsense',
      '',
    ]) {
      expect(fromExpression(text)).toMatchObject({ mode: 'advanced', expression: text });
    }
  });

  it('switching mode adjusts defaults: hour 1 and day 1 instead of 0 or *, month 1, Sunday at least', () => {
    const daily = initialCronState;
    expect(switchMode(daily, 'hourly')).toMatchObject({ mode: 'hourly', hour: 1 });
    expect(toExpression(switchMode(daily, 'hourly'))).toBe('0 */1 * * ?');
    expect(switchMode(state({ day: 0 }), 'daily')).toMatchObject({ day: 1 });
    expect(switchMode(state({ day: '*' }), 'monthly')).toMatchObject({ day: 1, month: 1 });
    expect(toExpression(switchMode(daily, 'monthly'))).toBe('0 0 1 */1 *');
    expect(switchMode(state({ weekdays: [] }), 'weekly').weekdays).toEqual([0]);
    // All seven days is every day (issue 16: "only on Sunday, Monday, …" listed all seven).
    expect(toExpression(switchMode(daily, 'weekly'))).toBe('0 0 * * *');
    expect(switchMode(state({ mode: 'hourly', hour: 5 }), 'daily')).toMatchObject({ hour: 5 });
    expect(switchMode(state({ hour: 4, day: 3 }), 'advanced').expression).toBe('0 4 */3 * *');
  });

  it('keeps at least one weekday selected', () => {
    let s = state({ mode: 'weekly', weekdays: [0, 2] });
    s = toggleWeekday(s, 2);
    expect(s.weekdays).toEqual([0]);
    expect(toggleWeekday(s, 0).weekdays).toEqual([0]);
    expect(toggleWeekday(s, 6).weekdays).toEqual([0, 6]);
  });
});

describe('schedule description language (the interface language)', () => {
  it.each([
    ['zh_TW', 'zh_TW'],
    ['zh_HK', 'zh_TW'],
    ['zh_CN', 'zh_CN'],
    ['de_DE', 'de'],
    ['fr_FR', 'fr'],
    // The prefix rule: cronstrue has no plain 'pt', so Portuguese falls back to en.
    ['pt_BR', 'en'],
    ['en_US', 'en'],
    ['el_GR', 'en'],
    [undefined, 'en'],
  ])('%s → %s', (language, locale) => {
    expect(cronLocaleOf(language)).toBe(locale);
  });

  it('describes a schedule in the language, null when blank', () => {
    expect(describeCron('0 4 * * 0,6', 'en_US')).toBe('At 04:00, only on Sunday and Saturday');
    expect(describeCron('0 4 * * 0,6', 'de_DE')).toContain('04:00');
    expect(describeCron('0 4 * * 0,6', 'zh_HK')).toContain('星期日');
    expect(describeCron('  ', 'en_US')).toBeNull();
    const everyDay = toExpression({ ...fromExpression('0 4 * * 1'), weekdays: [0, 1, 2, 3, 4, 5, 6] });
    expect(describeCron(everyDay, 'en_US')).not.toMatch(/only on/);
  });
});
