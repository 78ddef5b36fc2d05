import { AnsiUp } from 'ansi_up';
import { DAEMON_LINE_PREFIX } from '@hearth/contract';
import { isDaemonLine } from './console-buffer';

export interface RenderedLine {
  daemon: boolean;
  /** Safe HTML: ansi_up escapes every `& < > " '` of the text and only emits spans (and http/https links). */
  html: string;
}

/**
 * Renders a run of consecutive lines with one converter, so a colour set on one line carries to the next as
 * it does in a terminal. The DAEMON prefix is dropped from the text: the view shows a tag instead.
 */
export function renderLines(lines: readonly string[]): RenderedLine[] {
  const converter = new AnsiUp();
  converter.escape_html = true;
  converter.url_allowlist = { http: 1, https: 1 };
  return lines.map((line) => {
    const daemon = isDaemonLine(line);
    const text = daemon ? line.slice(DAEMON_LINE_PREFIX.length) : line;
    return { daemon, html: converter.ansi_to_html(text) };
  });
}
