/**
 * Whether a (field-valid) schedule can ever fire: `0 0 31 2 *` names only days that no month in it has, so the
 * task would silently never run. Day of month and day of week combine as in croner (and classic cron): when both
 * are restricted a day matching either fires, so only a restricted day of month with an unrestricted day of week
 * can be unreachable. February counts 29 days: `0 0 29 2 *` fires in leap years.
 */

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

function numberOf(text: string, names?: string[]): number {
  const index = names?.indexOf(text.toUpperCase()) ?? -1;
  return index >= 0 ? index + 1 : Number(text);
}

/** The values a field selects, for fields that already passed validation (`a`, `a-b`, `*`, each `/step`). */
function valuesOf(field: string, min: number, max: number, names?: string[]): Set<number> {
  const values = new Set<number>();
  for (const item of field.split(',')) {
    const [range = '*', step] = item.split('/');
    const [from = '*', to] = range.split('-');
    const low = from === '*' ? min : numberOf(from, names);
    // `a/step` runs from a to the end of the field, as croner reads it.
    const high = from === '*' ? max : to !== undefined ? numberOf(to, names) : step ? max : low;
    for (let v = low; v <= high; v += Number(step ?? 1)) values.add(v);
  }
  return values;
}

const unrestricted = (field: string) => field === '*' || field === '?';

/** Null when the schedule fires some day; else why it never does. `fields` are the five day-based fields. */
export function neverFiresReason(fields: readonly string[]): string | null {
  const [, , dayOfMonth = '*', month = '*', dayOfWeek = '*'] = fields;
  if (unrestricted(dayOfMonth) || !unrestricted(dayOfWeek)) return null;
  const days = valuesOf(dayOfMonth, 1, 31);
  for (const m of valuesOf(month, 1, 12, MONTHS)) {
    const length = DAYS_IN_MONTH[m - 1] ?? 0;
    for (const d of days) if (d <= length) return null;
  }
  return `the schedule never fires: no month in '${month}' has day '${dayOfMonth}'`;
}
