/**
 * A template command line → argv, with variables that stay data (docs/daemon.md § Variables and commands):
 * the line is split FIRST, then `${name}` is substituted inside each argument, so a value with spaces or
 * quotes is still one argument and never shell text. Two exceptions, both an administrator's choice:
 * - an argument that is exactly `${name}` (unquoted) of a variable only an admin may set (`userEdit: false`,
 *   e.g. the generic templates' `${command}`) is split like command-line text;
 * - the script of a shell the template runs on purpose (`sh -c '<script>'`, also after `env`, `nice` …) gets
 *   its values quoted for the shell (./shell-quote).
 * An argument that is exactly `${name}` of an empty value is dropped, as an empty flag vanished before.
 */
import { basename } from 'node:path';
import { splitCommandLine, splitCommandWords } from './command-line';
import { substituteShellScript } from './shell-quote';
import { substitute, type Substitutions } from './variables';

/** Shells whose `-c` script is POSIX shell text; `busybox sh` counts too. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'ash', 'ksh', 'mksh', 'zsh']);
const WHOLE_PLACEHOLDER = /^\$\{([^}]+)\}$/;
/** Shell options that take the next argument as their value (`-o pipefail`). */
const OPTION_WITH_VALUE = new Set(['-o', '+o', '-O', '+O']);

interface Item {
  /** As written in the template (or, for an expanded admin value, the final text). */
  raw: string;
  /** Still to be substituted: false for the words an admin-only value was split into. */
  template: boolean;
  bare: boolean;
}

function wholeName(item: Item): string | undefined {
  return item.template && item.bare ? WHOLE_PLACEHOLDER.exec(item.raw)?.[1] : undefined;
}

/** The index of the argument holding the script of `sh -c <script>` (or `busybox sh -c`), or -1. */
export function shellScriptIndex(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const program = basename(argv[i] ?? '');
    const afterShell = SHELLS.has(program)
      ? i + 1
      : program === 'busybox' && SHELLS.has(argv[i + 1] ?? '')
        ? i + 2
        : -1;
    if (afterShell < 0) continue;
    for (let j = afterShell; j < argv.length; j++) {
      const arg = argv[j] ?? '';
      if (arg === '--' || !/^[-+]./.test(arg)) break;
      if (/^-[A-Za-z]*c[A-Za-z]*$/.test(arg)) return j + 1 < argv.length ? j + 1 : -1;
      if (OPTION_WITH_VALUE.has(arg)) j++;
    }
  }
  return -1;
}

function expandAdminValues(line: string, values: Substitutions, adminOnly: ReadonlySet<string>): Item[] {
  return splitCommandWords(line).flatMap((word): Item[] => {
    const item = { raw: word.text, template: true, bare: word.bare };
    const name = wholeName(item);
    if (name === undefined || !adminOnly.has(name) || !Object.hasOwn(values, name)) return [item];
    return splitCommandLine(values[name] ?? '').map((raw) => ({ raw, template: false, bare: false }));
  });
}

/** Splits `line`, then substitutes `values` argument by argument (see the file comment). */
export function commandArgv(line: string, values: Substitutions, adminOnly: ReadonlySet<string>): string[] {
  const items = expandAdminValues(line, values, adminOnly).filter((item) => {
    const name = wholeName(item);
    return name === undefined || !Object.hasOwn(values, name) || values[name] !== '';
  });
  const plain = items.map((item) => (item.template ? substitute(item.raw, values) : item.raw));
  const script = shellScriptIndex(plain);
  const scriptItem = items[script];
  if (scriptItem?.template) plain[script] = substituteShellScript(scriptItem.raw, values);
  return plain;
}
