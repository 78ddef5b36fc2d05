/**
 * The console's pure view rules (issue 16 item 21), apart from React so they are unit-tested: which lines a
 * search shows, the text a copy puts on the clipboard, and whether the view is at the bottom (following).
 */
// ESC [ … final byte (SGR colours and the other CSI sequences a game server prints).
// eslint-disable-next-line no-control-regex
const CSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** A line as the user reads it: no colour codes (the `[DAEMON] ` prefix stays, so it can be searched for). */
export function plainLine(line: string): string {
  return line.replace(CSI, '');
}

/** The lines containing `query`, ignoring case; every line for a blank query. */
export function filterLines(lines: readonly string[], query: string): readonly string[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return lines;
  return lines.filter((line) => plainLine(line).toLowerCase().includes(needle));
}

/** What "copy" puts on the clipboard when nothing is selected: the shown lines as plain text. */
export function copyText(lines: readonly string[]): string {
  return lines.map(plainLine).join('\n');
}

/** Within this many pixels of the end counts as "at the bottom" (sub-pixel scroll positions, zoom). */
export const BOTTOM_SLACK_PX = 4;

export function atBottom(el: { scrollTop: number; scrollHeight: number; clientHeight: number }): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK_PX;
}
