import pino, { type Logger } from 'pino';
import type { LogSink } from './sink';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** A component's logger (the local node's, a lone daemon's) writing to the console sink. */
export function componentLogger(name: string, level: Level, sink: LogSink): Logger {
  return pino({ name, level }, sink);
}

/**
 * The `hearth` command's own lines (where the panel listens, the local node, shutdown): the console's summary of
 * the start, shown whatever `log.level` says, except `silent`.
 */
export function commandLogger(level: Level, sink: LogSink): Logger {
  return pino({ name: 'hearth', level: level === 'silent' ? 'silent' : 'info' }, sink);
}
