/** The schedule validator shared by the web editor and the daemon. */
import { describe, expect, it } from 'vitest';
import { canSaveTask, cronError, isValidCron, normalizeCron, taskInputSchema } from '../src/tasks';

describe('cronError', () => {
  it.each([
    '',
    '   ',
    '0 0 */1 * *',
    '0 4 * * *',
    '30 */2 * * ?',
    '0 4 ? * *',
    '0 0 1 */3 *',
    '0 12 * * 0,1,5',
    '0 12 * * MON-FRI',
    '0 0 1 JAN *',
    '15,45 8-18/2 * * 7',
    '@daily',
    '@HOURLY',
    '@weekly',
    '@monthly',
    '@yearly',
    '@annually',
    '@midnight',
  ])('accepts %j', (expression) => {
    expect(cronError(expression)).toBeNull();
  });

  it.each([
    ['61 * * * *', 'minute'],
    ['0 24 * * *', 'hour'],
    ['0 0 0 * *', 'day of month'],
    ['0 0 32 * *', 'day of month'],
    ['0 0 * 13 *', 'month'],
    ['0 0 * * 8', 'day of week'],
    ['? 0 * * *', 'day fields'],
    ['0 0 * * * *', '5 fields'],
    ['0 0 * *', '5 fields'],
    ['@every 1s', 'alias'],
    ['*/0 * * * *', 'minute'],
    ['5-1 * * * *', 'minute'],
    ['a b c d e', 'minute'],
    ['1,,2 * * * *', 'minute'],
  ])('rejects %j (%s)', (expression, reason) => {
    expect(cronError(expression)).toContain(reason);
  });

  it('refuses six fields (per-second schedules) whatever their values', () => {
    for (const expression of ['* * * * * *', '*/2 0 4 * * *', '0 0 0 28 2 *', '60 * * * * *']) {
      expect(isValidCron(expression), expression).toBe(false);
      expect(cronError(expression), expression).toBe(
        'a schedule has 5 fields: minute hour day month weekday',
      );
    }
  });
});

describe('normalizeCron', () => {
  it('expands aliases, collapses spaces, blank is manual', () => {
    expect(normalizeCron('@daily')).toBe('0 0 * * *');
    expect(normalizeCron('  0   4 * *  * ')).toBe('0 4 * * *');
    expect(normalizeCron(' ')).toBeNull();
    expect(normalizeCron(null)).toBeNull();
  });
});

describe('task input', () => {
  it('stores a blank schedule as null and drops the editor-only scheduled flag', () => {
    const task = taskInputSchema.parse({ name: ' Nightly ', cronSchedule: '  ', scheduled: false });
    expect(task).toEqual({ name: 'Nightly', cronSchedule: null, operations: [] });
  });

  it('parses runtime steps and processors, naming a bad field', () => {
    const task = taskInputSchema.parse({
      name: 'Restart',
      cronSchedule: '0 4 * * *',
      operations: [
        { type: 'console', command: 'say Restart in 5 minutes' },
        { type: 'sleep', seconds: 300 },
        { type: 'stop' },
        { type: 'wait' },
        { type: 'start' },
        { type: 'writefile', target: 'a.txt' },
      ],
    });
    expect(task.operations[3]).toEqual({ type: 'wait', timeoutSeconds: 600 });
    expect(task.operations[5]).toEqual({ type: 'writefile', target: 'a.txt', text: '' });
    const bad = taskInputSchema.safeParse({ name: 'x', operations: [{ type: 'sleep' }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['operations', 0, 'seconds']);
    const multiLine = taskInputSchema.safeParse({
      name: 'x',
      operations: [{ type: 'console', command: 'a\nb' }],
    });
    expect(multiLine.success).toBe(false);
  });

  it('save rule: non-blank name and a valid schedule when scheduled', () => {
    expect(canSaveTask('Nightly', '0 4 * * *', true)).toBe(true);
    expect(canSaveTask('  ', '0 4 * * *', true)).toBe(false);
    expect(canSaveTask('Nightly', '0 99 * * *', true)).toBe(false);
    expect(canSaveTask('Nightly', '0 99 * * *', false)).toBe(true);
    expect(canSaveTask('Nightly', '@daily', true)).toBe(true);
  });
});
