/**
 * Daemon lines in the reader's language (issue 16 item 13, docs/adr/0013-daemon-message-codes.md): a line the
 * daemon wrote by code carries a marker after its English text; this replaces the text with the translation of
 * `daemonMessages.<code>`. Game output, lines of older daemons and codes this app does not know stay as they
 * came (without the marker).
 */
import { DAEMON_LINE_PREFIX } from '@hearth/contract';
import { daemonMessages, daemonTermText, parseDaemonMessage } from '@hearth/contract/daemon-messages';

/** A translation of `key` with `params`, or null when the current language (and English) lack it. */
export type Translate = (key: string, params: Record<string, string>) => string | null;

export function localizeLine(line: string, translate: Translate): string {
  if (!line.startsWith(DAEMON_LINE_PREFIX)) return line;
  const parsed = parseDaemonMessage(line);
  if (!parsed) return line;
  if (!Object.hasOwn(daemonMessages, parsed.code)) return parsed.text;
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed.params)) {
    const english = daemonTermText(name, value);
    params[name] =
      english === null ? value : (translate(`daemonMessages.terms.${name}.${value}`, {}) ?? english);
  }
  const text = translate(`daemonMessages.${parsed.code}`, params);
  return text === null ? parsed.text : `${DAEMON_LINE_PREFIX}${text}`;
}
