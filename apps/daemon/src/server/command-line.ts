/**
 * Splits a command line into argv without a shell (SPEC/reference §15: "split on spaces with quote
 * grouping"). Double and single quotes group words and are removed; a backslash escapes the next character
 * outside single quotes. An unbalanced quote or a trailing backslash is refused with ErrCommandSyntax.
 * Template lines are split BEFORE `${}` substitution (./command-argv), so a value never adds arguments.
 */
import { AppError } from '@hearth/contract';

type Quote = '"' | "'" | null;

/** One argument; `bare` when it was written without any quote or backslash (`${command}`, not `"${command}"`). */
export interface CommandWord {
  text: string;
  bare: boolean;
}

export function splitCommandWords(line: string): CommandWord[] {
  const words: CommandWord[] = [];
  let current = '';
  let inWord = false;
  let bare = true;
  let quote: Quote = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line.charAt(i);
    if (ch === '\\' && quote !== "'") {
      if (i + 1 >= line.length) throw new AppError('ErrCommandSyntax', { reason: 'trailing backslash' });
      current += line.charAt(++i);
      inWord = true;
      bare = false;
    } else if (quote) {
      if (ch === quote) quote = null;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
      bare = false;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push({ text: current, bare });
      current = '';
      inWord = false;
      bare = true;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote) throw new AppError('ErrCommandSyntax', { reason: `unbalanced ${quote} quote` });
  if (inWord) words.push({ text: current, bare });
  return words;
}

export function splitCommandLine(line: string): string[] {
  return splitCommandWords(line).map((word) => word.text);
}
