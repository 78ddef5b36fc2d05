/**
 * Splits a command line into argv without a shell (SPEC/reference §15: "split on spaces with quote
 * grouping"). Double and single quotes group words and are removed; a backslash escapes the next character
 * outside single quotes. An unbalanced quote or a trailing backslash is refused with ErrCommandSyntax.
 */
import { AppError } from '@hearth/contract';

type Quote = '"' | "'" | null;

export function splitCommandLine(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let inWord = false;
  let quote: Quote = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line.charAt(i);
    if (ch === '\\' && quote !== "'") {
      if (i + 1 >= line.length) throw new AppError('ErrCommandSyntax', { reason: 'trailing backslash' });
      current += line.charAt(++i);
      inWord = true;
    } else if (quote) {
      if (ch === quote) quote = null;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) args.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote) throw new AppError('ErrCommandSyntax', { reason: `unbalanced ${quote} quote` });
  if (inWord) args.push(current);
  return args;
}
