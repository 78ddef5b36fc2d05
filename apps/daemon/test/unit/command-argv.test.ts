/** Split first, substitute per argument (docs/daemon.md § Variables and commands). */
import { describe, expect, it } from 'vitest';
import { AppError } from '@hearth/contract';
import { commandArgv, shellScriptIndex } from '../../src/server/command-argv';

const values = {
  motd: `it's "a" $(id); rm -rf x`,
  spaced: 'two words',
  empty: '',
  command: './start.sh --port 25565 "my world"',
  port: '25565',
  rootDir: '/srv/my servers/a',
};
const adminOnly = new Set(['command']);
const argv = (line: string) => commandArgv(line, values, adminOnly);

describe('commandArgv', () => {
  it('keeps a value with spaces, quotes and shell syntax in one argument, wherever it sits', () => {
    expect(argv("printf '%s\\n' ${motd}")).toEqual(['printf', '%s\\n', values.motd]);
    expect(argv('game --motd=${motd} -- "${spaced}" pre${spaced}post')).toEqual([
      'game',
      `--motd=${values.motd}`,
      '--',
      'two words',
      'pretwo wordspost',
    ]);
    expect(argv('java -jar ${rootDir}/server.jar')).toEqual(['java', '-jar', '/srv/my servers/a/server.jar']);
  });

  it('a value never adds or removes arguments, nor unbalances quotes', () => {
    const odd = { v: '" \' \\' };
    expect(commandArgv('echo ${v} end', odd, new Set())).toEqual(['echo', '" \' \\', 'end']);
  });

  it('splits a whole, unquoted ${name} of an admin-only variable like command-line text, once', () => {
    expect(argv('${command}')).toEqual(['./start.sh', '--port', '25565', 'my world']);
    // Quoted, or part of a longer argument, it stays one argument; a user-editable one always does.
    expect(argv('"${command}"')).toEqual([values.command]);
    expect(argv('x=${command}')).toEqual([`x=${values.command}`]);
    expect(commandArgv('${command}', values, new Set())).toEqual([values.command]);
    // The admin's text is not substituted again.
    expect(commandArgv('${command}', { command: 'echo ${motd}', motd: 'x' }, adminOnly)).toEqual([
      'echo',
      '${motd}',
    ]);
  });

  it('drops an argument that is only an empty variable; keeps an empty quoted one', () => {
    expect(argv('game ${empty} --x')).toEqual(['game', '--x']);
    expect(argv('game "${empty}" --x')).toEqual(['game', '', '--x']);
    expect(argv('game -p${empty}')).toEqual(['game', '-p']);
  });

  it('leaves unknown names as written', () => {
    expect(argv('echo ${HOME}')).toEqual(['echo', '${HOME}']);
  });

  it('quotes values into the script of a shell the template runs, and only there', () => {
    expect(argv("sh -c 'printf %s ${motd}' x ${motd}")).toEqual([
      'sh',
      '-c',
      `printf %s 'it'\\''s "a" $(id); rm -rf x'`,
      'x',
      values.motd,
    ]);
    expect(argv("nice -n 5 /bin/bash -lc 'echo ${spaced}'")).toEqual([
      'nice',
      '-n',
      '5',
      '/bin/bash',
      '-lc',
      "echo 'two words'",
    ]);
    expect(argv("busybox sh -c 'echo ${spaced}'")[3]).toBe("echo 'two words'");
    // Not a script: a shell running a file gets the value as its argument.
    expect(argv('bash start.sh ${spaced}')).toEqual(['bash', 'start.sh', 'two words']);
  });

  it('refuses an unbalanced template line and an unquotable script', () => {
    const code = (line: string) => {
      try {
        argv(line);
      } catch (err) {
        return err instanceof AppError ? err.code : String(err);
      }
      return 'accepted';
    };
    expect(code('echo "${motd}')).toBe('ErrCommandSyntax');
    expect(code('sh -c "echo `date` ${motd}"')).toBe('ErrCommandSyntax');
  });
});

describe('shellScriptIndex', () => {
  it('finds the script after -c, option clusters and -o values', () => {
    expect(shellScriptIndex(['sh', '-c', 'x'])).toBe(2);
    expect(shellScriptIndex(['/usr/bin/dash', '-e', '-c', 'x'])).toBe(3);
    expect(shellScriptIndex(['bash', '-o', 'pipefail', '-c', 'x'])).toBe(4);
    expect(shellScriptIndex(['env', 'A=1', 'zsh', '-ec', 'x'])).toBe(4);
    expect(shellScriptIndex(['busybox', 'sh', '-c', 'x'])).toBe(3);
  });

  it('finds none for a shell running a file, a lone -c, or other programs', () => {
    expect(shellScriptIndex(['sh', 'start.sh', '-c', 'x'])).toBe(-1);
    expect(shellScriptIndex(['sh', '-c'])).toBe(-1);
    expect(shellScriptIndex(['sh', '--', '-c', 'x'])).toBe(-1);
    expect(shellScriptIndex(['java', '-c', 'x'])).toBe(-1);
    expect(shellScriptIndex(['busybox', 'ls', '-c', 'x'])).toBe(-1);
  });
});
