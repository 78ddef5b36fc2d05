import type { Logger } from 'pino';
import type { LogSink } from './sink';

/**
 * The one-time setup link, printed last and framed so it stands out of the start-up lines; the link itself
 * is the last line, with nothing after it on the line (terminals select it whole). As JSON, one record whose
 * message holds the link followed by a space (docs/configuration.md § Console).
 */
export function printSetupLink(url: string, sink: LogSink, log: Logger): void {
  if (!sink.pretty) {
    log.info(`First start: create the administrator at ${url} (one-time link)`);
    return;
  }
  const rule = '━'.repeat(Math.max(24, Math.min(url.length, 72)));
  sink.print(
    [
      '',
      `┏━━ First start ${rule.slice(16)}`,
      '┃ Create the administrator with this one-time link:',
      '┃',
      `┗━ ${url}`,
      '',
    ].join('\n'),
  );
}
