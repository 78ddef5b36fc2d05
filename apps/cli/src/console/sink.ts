import type { LogFormat } from '@hearth/panel';
import { prettyLine } from './pretty';

/** Where log lines go: pino writes one JSON line per `write` call. */
export interface LogSink {
  write(line: string): void;
  /** Text for the human reading a terminal, as is (only used when `pretty`). */
  print(text: string): void;
  /** Whether lines are shown as short human lines (a terminal) rather than JSON. */
  readonly pretty: boolean;
}

/**
 * `auto`: short human lines when stdout is a terminal, JSON lines otherwise (journald, files, pipes), so a
 * machine reading the output gets JSON only (docs/configuration.md `log.format`).
 */
export function consoleSink(format: LogFormat, out: NodeJS.WriteStream = process.stdout): LogSink {
  const pretty = format === 'pretty' || (format === 'auto' && out.isTTY === true);
  const print = (text: string) => void out.write(text);
  if (!pretty) return { pretty, print, write: print };
  // NO_COLOR (no-color.org) and dumb terminals get no escape codes.
  const color = out.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
  return {
    pretty,
    print,
    write: (chunk) => {
      for (const line of chunk.split('\n')) if (line !== '') out.write(`${prettyLine(line, color)}\n`);
    },
  };
}
