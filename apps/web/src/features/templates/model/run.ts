import type { RunSection } from '@hearth/contract';

/**
 * The Run Configuration card shows the command line as a program plus an argument list. The daemon splits
 * the line the same way (spaces, with `"` or `'` grouping), so re-joining with quotes gives the same argv.
 */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const match of line.matchAll(pattern)) {
    words.push(match[1]?.replace(/\\(.)/g, '$1') ?? match[2] ?? match[3] ?? '');
  }
  return words;
}

function quote(word: string): string {
  if (word !== '' && !/[\s"'\\]/.test(word)) return word;
  return `"${word.replace(/(["\\])/g, '\\$1')}"`;
}

export function joinCommand(words: readonly string[]): string {
  return words.map(quote).join(' ');
}

/** Replaces the arguments after the program, keeping the program word as the user wrote it. */
export function withArguments(line: string, args: readonly string[]): string {
  const program = line.trim().match(/^("(?:[^"\\]|\\.)*"|'[^']*'|\S+)/)?.[0] ?? '';
  return [program, joinCommand(args)].filter((part) => part !== '').join(' ');
}

export function argumentsOf(line: string): string[] {
  return splitCommand(line).slice(1);
}

/** The Shutdown card: console text or a signal number; the other field is removed so exactly one applies. */
export type ShutdownKind = 'command' | 'signal';

export function shutdownKind(run: Pick<RunSection, 'stop' | 'stopCode'>): ShutdownKind {
  return run.stopCode !== undefined && run.stopCode !== 0 ? 'signal' : 'command';
}

export function withShutdown(run: RunSection, kind: ShutdownKind, value: string | number): RunSection {
  const { stop: _stop, stopCode: _code, ...rest } = run;
  if (kind === 'signal') return { ...rest, stopCode: typeof value === 'number' ? value : 15 };
  return { ...rest, stop: typeof value === 'string' ? value : '' };
}
