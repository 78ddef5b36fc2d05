/**
 * Task schedules: one validator shared by the web editor (save disabled while
 * invalid) and the daemon (ErrInvalidCron), so both always agree. Accepted: blank (manual only), the aliases
 * below, or 5 fields `minute hour day-of-month month day-of-week` with `*`, `?`, numbers, names (JAN, MON),
 * ranges, lists and `/steps`. The "blank day" (docs/daemon.md § Tasks) is `?` in either day field
 * (cron-validator's `allowBlankDay`, which PufferPanel's editor uses): it means "any". Six fields (per-second
 * schedules) are refused everywhere, tests included: they move the daemon's scheduler clock instead. A schedule
 * whose days never come (`0 0 31 2 *`) is refused too (cron-fires.ts).
 */
import { neverFiresReason } from './cron-fires';

export const DEFAULT_CRON_EXPRESSION = '0 0 */1 * *';

export const cronAliases: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

interface FieldRule {
  name: string;
  min: number;
  max: number;
  names?: string[];
  blankAllowed?: boolean;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

const fiveFieldRules: FieldRule[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31, blankAllowed: true },
  { name: 'month', min: 1, max: 12, names: MONTHS },
  // 7 is Sunday too (cron tradition; croner accepts it).
  { name: 'day of week', min: 0, max: 7, names: DAYS, blankAllowed: true },
];

function valueOf(text: string, rule: FieldRule): number | null {
  if (/^\d{1,2}$/.test(text)) {
    const n = Number(text);
    return n >= rule.min && n <= rule.max ? n : null;
  }
  const index = rule.names?.indexOf(text.toUpperCase()) ?? -1;
  return index < 0 ? null : index + (rule.names === MONTHS ? 1 : 0);
}

function itemValid(item: string, rule: FieldRule): boolean {
  const [range, step, extra] = item.split('/');
  if (extra !== undefined || range === undefined || range === '') return false;
  if (step !== undefined && !(/^\d{1,2}$/.test(step) && Number(step) >= 1)) return false;
  if (range === '*') return true;
  const [from, to, more] = range.split('-');
  if (more !== undefined || from === undefined) return false;
  const low = valueOf(from, rule);
  if (low === null) return false;
  if (to === undefined) return true;
  const high = valueOf(to, rule);
  return high !== null && high >= low;
}

function fieldError(text: string, rule: FieldRule): string | null {
  if (text === '?') return rule.blankAllowed ? null : `'?' is allowed only in the day fields`;
  const ok = text.split(',').every((item) => itemValid(item, rule));
  return ok ? null : `invalid ${rule.name} '${text}'`;
}

/** Null when `expression` is a valid schedule (blank = manual only), else the reason. */
export function cronError(expression: string | null | undefined): string | null {
  const text = (expression ?? '').trim();
  if (text === '' || Object.hasOwn(cronAliases, text.toLowerCase())) return null;
  if (text.startsWith('@')) return `unknown alias '${text}'`;
  const fields = text.split(/\s+/);
  if (fields.length !== 5) return 'a schedule has 5 fields: minute hour day month weekday';
  for (const [index, rule] of fiveFieldRules.entries()) {
    const error = fieldError(fields[index] ?? '', rule);
    if (error) return error;
  }
  // Valid fields can still name a day that never comes (`0 0 31 2 *`): refused rather than silently idle.
  return neverFiresReason(fields);
}

export function isValidCron(expression: string | null | undefined): boolean {
  return cronError(expression) === null;
}

/** The expression with an alias expanded and whitespace collapsed; blank → null (manual only). */
export function normalizeCron(expression: string | null | undefined): string | null {
  const text = (expression ?? '').trim();
  if (text === '') return null;
  return cronAliases[text.toLowerCase()] ?? text.split(/\s+/).join(' ');
}
