/**
 * Values quoted into a template's own shell script arrive literally: each case runs the result through a real
 * /bin/sh (and bash and busybox sh), which prints what it received.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '@hearth/contract';
import { shellQuote, substituteShellScript } from '../../src/server/shell-quote';

const HOSTILE = [
  '$(id)',
  '`id`',
  '; rm -rf x',
  "'",
  '"',
  'it\'s a "test"',
  'back\\slash \\\\ \\',
  '  spaced   out  ',
  '${HOME} $HOME $0 $@ $$',
  '*',
  '~ {a,b} !x #not a comment',
  'a && touch pwned || touch pwned2 | cat > pwned3',
  "'; touch pwned; echo '",
  '"; touch pwned; echo "',
  '',
];

/** The shells on this machine that run a `-c` script: argv for running `script`. */
const shells: Array<[string, (script: string) => [string, string[]]]> = (
  [
    ['/bin/sh', (s) => ['/bin/sh', ['-c', s]]],
    ['bash', (s) => ['/usr/bin/bash', ['-c', s]]],
    ['busybox sh', (s) => ['/usr/bin/busybox', ['sh', '-c', s]]],
  ] as Array<[string, (script: string) => [string, string[]]]>
).filter(([, argv]) => existsSync(argv('')[0]));

/** Runs the script in an empty folder (so `*` and `touch` would show) and returns stdout and the folder's files. */
function run(shell: (s: string) => [string, string[]], script: string): { out: string; files: string[] } {
  const cwd = mkdtempSync(join(tmpdir(), 'hearth-quote-'));
  const [file, args] = shell(script);
  const out = execFileSync(file, args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: '/home/x' },
  });
  return { out, files: readdirSync(cwd) };
}

function refusal(script: string, values: Record<string, string>): AppError {
  try {
    substituteShellScript(script, values);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error(`expected ErrCommandSyntax for ${script}`);
}

describe('shellQuote', () => {
  it("single-quotes and escapes quotes as '\\''", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('')).toBe("''");
  });
});

describe.each(shells)('values in a %s script arrive literally', (_name, shell) => {
  it.each(HOSTILE)('unquoted: %j', (value) => {
    const script = substituteShellScript("printf '[%s]' ${v}", { v: value });
    expect(run(shell, script)).toEqual({ out: `[${value}]`, files: [] });
  });

  it.each(HOSTILE)("inside the template's single quotes: %j", (value) => {
    const script = substituteShellScript("printf '[%s]' 'pre ${v} post'", { v: value });
    expect(run(shell, script)).toEqual({ out: `[pre ${value} post]`, files: [] });
  });

  it.each(HOSTILE)("inside the template's double quotes: %j", (value) => {
    const script = substituteShellScript('printf "[%s]" "pre ${v} post"', { v: value });
    expect(run(shell, script)).toEqual({ out: `[pre ${value} post]`, files: [] });
  });

  it('next to text, several values, after a command substitution from plain text, and in a comment', () => {
    const values = { a: "x'y", b: '$(touch pwned)', dir: '/srv/my server' };
    const script = substituteShellScript(
      'cd /tmp && printf "%s|" pre${a}post ${b} $(printf %s ${a}) "${HOME:-none}"; # ${b}',
      values,
    );
    expect(run(shell, script)).toEqual({ out: `prex'ypost|$(touch pwned)|x'y|/home/x|`, files: [] });
  });
});

describe('substituteShellScript refuses places it cannot quote', () => {
  it.each([
    ['after a backquoted command', 'echo `date` ${v}'],
    ['after a here-document', 'cat <<EOF\n${v}\nEOF'],
    ["after a $'…' string", "echo $'a\\n' ${v}"],
    ['after a command substitution inside double quotes', 'echo "$(echo ${v})"'],
    ['inside a shell ${…} expansion', 'echo ${X:-${v}}'],
    ["directly after a '$'", 'echo $${v}'],
    ["directly after a '$' in double quotes", 'echo "$${v}"'],
  ])('%s', (_why, script) => {
    const err = refusal(script, { v: 'x' });
    expect(err.code).toBe('ErrCommandSyntax');
    expect(err.status).toBe(400);
  });

  it('refuses a value with a line break; leaves unknown ${NAME} to the shell', () => {
    expect(refusal('echo ${v}', { v: 'a\nb' }).code).toBe('ErrCommandSyntax');
    expect(substituteShellScript('echo ${HOME} ${v}', { v: 'x' })).toBe("echo ${HOME} 'x'");
    expect(substituteShellScript('echo \\${v}', { v: 'x' })).toBe('echo \\${v}');
  });
});
