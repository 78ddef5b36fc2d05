/**
 * Variables inside a shell script a template runs on purpose (`sh -c '<script>'`, docs/daemon.md § Variables
 * and commands). The script is an administrator's code; a value is data, so it is quoted for the place it
 * lands in: unquoted → `'value'` ('\'' for a quote), inside '…' → the quote closed and reopened around
 * each `'`, inside "…" → `\`, `$`, backquote and `"` escaped. Where the place cannot be told from a plain
 * scan (after a backquote, a here-document, a `$'…'` string, `$(` inside double quotes, inside a shell
 * `${…}` or right after a `$`), a value is refused rather than guessed at.
 */
import { AppError } from '@hearth/contract';

type State = 'plain' | 'single' | 'double' | 'comment';

/** POSIX single quoting: the shell gives back exactly `value`, whatever it holds. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function quoteFor(state: State, value: string): string {
  switch (state) {
    case 'plain':
      return shellQuote(value);
    case 'single':
      return value.replace(/'/g, `'\\''`);
    case 'double':
      return value.replace(/[\\$`"]/g, '\\$&');
    case 'comment':
      return value;
  }
}

const PLACEHOLDER = /^\$\{([^}]+)\}/;
/** Characters after which a `#` starts a comment (it must begin a word). */
const WORD_START = /[\s;&|()]/;

function refuse(name: string, why: string): never {
  throw new AppError('ErrCommandSyntax', {
    reason: `\${${name}} ${why} in a shell script; pass it as an argument ("$1") instead`,
  });
}

/**
 * Substitutes the known `${name}` placeholders of a shell script with their values quoted for their place.
 * Unknown names (`${HOME}`) stay shell text.
 */
export function substituteShellScript(script: string, values: Readonly<Record<string, string>>): string {
  let out = '';
  let state: State = 'plain';
  let unsafe: string | null = null;
  /** The last character copied is a `$` that the shell will read as one (not escaped). */
  let afterDollar = false;
  let i = 0;
  while (i < script.length) {
    const placeholder = PLACEHOLDER.exec(script.slice(i));
    const name = placeholder?.[1];
    if (placeholder && name !== undefined && Object.hasOwn(values, name)) {
      const value = values[name] ?? '';
      if (unsafe) refuse(name, `follows ${unsafe}`);
      if (/[\r\n\0]/.test(value)) refuse(name, 'holds a line break or NUL');
      // `$'…'` is bash's escape-processing string and `"$(…"` a command: a value never joins a `$`.
      if (afterDollar && state !== 'comment') refuse(name, "directly follows '$'");
      out += quoteFor(state, value);
      i += placeholder[0].length;
      afterDollar = false;
      continue;
    }
    const ch = script.charAt(i);
    const next = script.charAt(i + 1);
    if ((state === 'plain' || state === 'double') && ch === '\\' && i + 1 < script.length) {
      out += ch + next;
      i += 2;
      afterDollar = false;
      continue;
    }
    if ((state === 'plain' || state === 'double') && ch === '$' && next === '{') {
      // A shell expansion such as ${HOME:-x}: copied whole up to its `}`; a value inside it is refused.
      const end = script.indexOf('}', i);
      const span = end < 0 ? script.slice(i) : script.slice(i, end + 1);
      const inner = /\$\{([^}]+)\}/.exec(span.slice(2));
      if (inner?.[1] !== undefined && Object.hasOwn(values, inner[1])) refuse(inner[1], 'sits inside ${…}');
      out += span;
      i += span.length;
      afterDollar = false;
      continue;
    }
    unsafe ??= unsafeConstruct(state, ch, next);
    afterDollar = ch === '$' && state !== 'single';
    state = nextState(state, ch, out);
    out += ch;
    i += 1;
  }
  return out;
}

/** Constructs after which the quoting state of the rest cannot be known from a plain scan. */
function unsafeConstruct(state: State, ch: string, next: string): string | null {
  if (state === 'plain') {
    if (ch === '`') return 'a backquoted command';
    if (ch === '<' && next === '<') return 'a here-document';
    if (ch === '$' && next === "'") return "a $'…' string";
  }
  if (state === 'double') {
    if (ch === '`') return 'a backquoted command';
    if (ch === '$' && next === '(') return 'a command substitution inside double quotes';
  }
  return null;
}

function nextState(state: State, ch: string, before: string): State {
  switch (state) {
    case 'plain':
      if (ch === "'") return 'single';
      if (ch === '"') return 'double';
      if (ch === '#' && (before === '' || WORD_START.test(before.charAt(before.length - 1))))
        return 'comment';
      return 'plain';
    case 'single':
      return ch === "'" ? 'plain' : 'single';
    case 'double':
      return ch === '"' ? 'plain' : 'double';
    case 'comment':
      return ch === '\n' ? 'plain' : 'comment';
  }
}
