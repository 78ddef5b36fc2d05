import { describe, expect, it } from 'vitest';
import { AppError } from '@hearth/contract';
import { splitCommandLine } from '../../src/server/command-line';

function syntaxError(line: string): AppError {
  try {
    splitCommandLine(line);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error(`expected ErrCommandSyntax for ${line}`);
}

describe('splitCommandLine', () => {
  it('splits on any run of whitespace and ignores leading/trailing space', () => {
    expect(splitCommandLine('  java   -Xmx1G\t-jar server.jar  ')).toEqual([
      'java',
      '-Xmx1G',
      '-jar',
      'server.jar',
    ]);
    expect(splitCommandLine('')).toEqual([]);
    expect(splitCommandLine('   ')).toEqual([]);
  });

  it('groups words inside double and single quotes and removes the quotes', () => {
    expect(splitCommandLine('run "my server" \'two words\'')).toEqual(['run', 'my server', 'two words']);
    expect(splitCommandLine('a"b c"d')).toEqual(['ab cd']);
    expect(splitCommandLine(`say "it's" 'a "quote"'`)).toEqual(['say', "it's", 'a "quote"']);
  });

  it('keeps empty quoted arguments', () => {
    expect(splitCommandLine('cmd "" \'\' x')).toEqual(['cmd', '', '', 'x']);
  });

  it('honours backslash escapes outside single quotes only', () => {
    expect(splitCommandLine('a\\ b c')).toEqual(['a b', 'c']);
    expect(splitCommandLine('"say \\"hi\\""')).toEqual(['say "hi"']);
    expect(splitCommandLine("'C:\\dir\\file'")).toEqual(['C:\\dir\\file']);
    expect(splitCommandLine('\\$HOME')).toEqual(['$HOME']);
  });

  it('never interprets shell syntax', () => {
    expect(splitCommandLine('echo $(id) ; rm -rf / | cat')).toEqual([
      'echo',
      '$(id)',
      ';',
      'rm',
      '-rf',
      '/',
      '|',
      'cat',
    ]);
  });

  it('refuses an unbalanced quote or a trailing backslash with ErrCommandSyntax', () => {
    for (const line of ['java -jar "server.jar', "echo 'open", 'a "b\' c', 'ends with \\']) {
      const err = syntaxError(line);
      expect(err.code).toBe('ErrCommandSyntax');
      expect(err.status).toBe(400);
    }
    expect(syntaxError('x "y').metadata).toEqual({ reason: 'unbalanced " quote' });
    expect(syntaxError('x \\').metadata).toEqual({ reason: 'trailing backslash' });
  });
});
