import { activityCsvColumns, type ActivityEntry } from '@hearth/contract';

/**
 * One CSV line (RFC 4180 quoting). A cell a spreadsheet would read as a formula (starting with `=`, `+`, `-`,
 * `@`, tab or carriage return) gets a leading `'`, so an actor label or a console command typed as
 * `=HYPERLINK(…)` stays text (docs/activity.md § Export).
 */
export function csvCell(value: unknown): string {
  let text =
    value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvHeader = `${activityCsvColumns.join(',')}\r\n`;

export function csvLine(entry: ActivityEntry): string {
  const cells = activityCsvColumns.map((column) =>
    column === 'time' ? new Date(entry.time).toISOString() : csvCell(entry[column]),
  );
  return `${cells.join(',')}\r\n`;
}
