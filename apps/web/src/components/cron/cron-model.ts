/**
 * The schedule editor's model, pure so every mode's
 * expression ↔ fields conversion is unit-tested. Hourly is `M` every-N-hours `* * ?`, daily `M H` every-N-days
 * `* *`, weekly `M H * * d,d`, monthly `M H D` every-N-months `*`, advanced free text. A new editor starts
 * Daily at 00:00 every 1 day, any month, all weekdays.
 */
import { DEFAULT_CRON_EXPRESSION } from '@hearth/contract';

export type CronMode = 'hourly' | 'daily' | 'weekly' | 'monthly' | 'advanced';
export const cronModes: CronMode[] = ['hourly', 'daily', 'weekly', 'monthly', 'advanced'];

/** `'*'` = any (only before a mode has given the field a number). */
export type CronValue = number | '*';

export interface CronState {
  mode: CronMode;
  minute: number;
  /** Hourly: every N hours; otherwise the hour of the day. */
  hour: CronValue;
  /** Daily: every N days; monthly: the day of the month. */
  day: CronValue;
  /** Monthly: every N months. */
  month: CronValue;
  /** Weekly: 0 (Sunday) … 6. */
  weekdays: number[];
  /** Advanced: the raw expression. */
  expression: string;
}

export const ALL_WEEKDAYS = [0, 1, 2, 3, 4, 5, 6];

export const initialCronState: CronState = {
  mode: 'daily',
  minute: 0,
  hour: 0,
  day: 1,
  month: '*',
  weekdays: ALL_WEEKDAYS,
  expression: DEFAULT_CRON_EXPRESSION,
};

const atLeastOne = (value: CronValue): number => (value === 0 || value === '*' ? 1 : value);
const asNumber = (value: CronValue): number => (value === '*' ? 0 : value);

export function toExpression(state: CronState): string {
  const { minute } = state;
  const hour = asNumber(state.hour);
  switch (state.mode) {
    case 'hourly':
      return `${minute} */${atLeastOne(state.hour)} * * ?`;
    case 'daily':
      return `${minute} ${hour} */${atLeastOne(state.day)} * *`;
    case 'weekly': {
      // All seven days is every day: `*`, so the description says "every day", not "only on" all seven.
      const days = sortedWeekdays(state.weekdays);
      return `${minute} ${hour} * * ${days.length === 7 ? '*' : days.join(',')}`;
    }
    case 'monthly':
      return `${minute} ${hour} ${atLeastOne(state.day)} */${atLeastOne(state.month)} *`;
    case 'advanced':
      return state.expression.trim();
  }
}

function sortedWeekdays(days: number[]): number[] {
  const unique = [...new Set(days)].filter((d) => d >= 0 && d <= 6).sort((a, b) => a - b);
  return unique.length > 0 ? unique : [0];
}

const n = (text: string | undefined, min: number, max: number): number | null => {
  if (text === undefined || !/^\d{1,2}$/.test(text)) return null;
  const value = Number(text);
  return value >= min && value <= max ? value : null;
};

type Parsed = Partial<CronState> & { mode: CronMode };

/** Each mode's pattern; the first that matches (with values in range) decides the mode. */
const parsers: Array<(f: string[]) => Parsed | null> = [
  ([mi, h, d, mo, w]) => {
    const every = /^\*\/(\d+)$/.exec(h ?? '')?.[1];
    const ok = d === '*' && mo === '*' && (w === '?' || w === '*');
    const minute = n(mi, 0, 59);
    const hour = n(every, 1, 23);
    return ok && minute !== null && hour !== null ? { mode: 'hourly', minute, hour } : null;
  },
  ([mi, h, d, mo, w]) => {
    const every = d === '*' ? '1' : /^\*\/(\d+)$/.exec(d ?? '')?.[1];
    const ok = mo === '*' && (w === '*' || w === '?');
    const minute = n(mi, 0, 59);
    const hour = n(h, 0, 23);
    const day = n(every, 1, 31);
    return ok && minute !== null && hour !== null && day !== null
      ? { mode: 'daily', minute, hour, day }
      : null;
  },
  ([mi, h, d, mo, w]) => {
    const ok = (d === '*' || d === '?') && mo === '*' && /^[0-6](,[0-6])*$/.test(w ?? '');
    const minute = n(mi, 0, 59);
    const hour = n(h, 0, 23);
    if (!ok || minute === null || hour === null) return null;
    return { mode: 'weekly', minute, hour, weekdays: sortedWeekdays((w ?? '').split(',').map(Number)) };
  },
  ([mi, h, d, mo, w]) => {
    const every = /^\*\/(\d+)$/.exec(mo ?? '')?.[1];
    const ok = w === '*' || w === '?';
    const [minute, hour, day, month] = [n(mi, 0, 59), n(h, 0, 23), n(d, 1, 31), n(every, 1, 12)];
    if (!ok || minute === null || hour === null || day === null || month === null) return null;
    return { mode: 'monthly', minute, hour, day, month };
  },
];

/** The editor state for an existing expression: its mode when it fits one, otherwise Advanced. */
export function fromExpression(expression: string | null | undefined): CronState {
  const text = (expression ?? '').trim();
  const fields = text.split(/\s+/);
  const parsed = fields.length === 5 ? parsers.map((parse) => parse(fields)).find(Boolean) : null;
  if (!parsed) return { ...initialCronState, mode: 'advanced', expression: text };
  return { ...initialCronState, ...parsed, expression: text };
}

/** Switching mode keeps the values but makes them valid for the new mode. */
export function switchMode(state: CronState, mode: CronMode): CronState {
  const next: CronState = { ...state, mode };
  if (mode === 'hourly') next.hour = atLeastOne(state.hour);
  if (mode === 'daily' || mode === 'monthly') next.day = atLeastOne(state.day);
  if (mode === 'monthly') next.month = atLeastOne(state.month);
  if (mode === 'weekly') next.weekdays = sortedWeekdays(state.weekdays);
  if (mode !== 'hourly' && state.mode === 'hourly' && state.hour !== '*' && state.hour > 23) next.hour = 0;
  if (mode === 'advanced') next.expression = toExpression(state);
  return next;
}

/** Toggles a weekday; the last one cannot be removed (at least Sunday stays selected). */
export function toggleWeekday(state: CronState, day: number): CronState {
  const has = state.weekdays.includes(day);
  const weekdays = has ? state.weekdays.filter((d) => d !== day) : [...state.weekdays, day];
  return { ...state, weekdays: sortedWeekdays(weekdays) };
}
