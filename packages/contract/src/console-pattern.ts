/**
 * Console patterns without regular expressions (docs/alerts.md § Console patterns; the node matches live lines
 * with it, the panel checks the node's report again): a user's pattern never
 * becomes a RegExp, so no pattern can backtrack catastrophically. `literal` is a substring test; `glob` matches
 * the whole line with `*` (any run) and `?` (one character) by the classic greedy two-pointer walk, which is
 * O(line × pattern) at worst — both are bounded (ALERT_PATTERN_MAX, CONSOLE_LINE_MAX).
 */
import { stripDaemonMarker } from './daemon-messages';

export const CONSOLE_LINE_MAX = 4096;

export function globMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      p += 1;
      t += 1;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p;
      mark = t;
      p += 1;
    } else if (star !== -1) {
      p = star + 1;
      mark += 1;
      t = mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}

/** Matches the line as its reader sees it: a daemon line's code marker (daemon-messages.ts) is not part of it. */
export function lineMatches(pattern: string, mode: 'literal' | 'glob', line: string): boolean {
  const plain = stripDaemonMarker(line);
  const text = plain.length > CONSOLE_LINE_MAX ? plain.slice(0, CONSOLE_LINE_MAX) : plain;
  return mode === 'literal' ? text.includes(pattern) : globMatch(pattern, text);
}
