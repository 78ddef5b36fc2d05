/**
 * Console patterns (docs/alerts.md § Console patterns): literal and glob matching without regular expressions,
 * and a pattern that would backtrack catastrophically as a RegExp is answered (the walk is O(line × pattern)).
 */
import { describe, expect, it } from 'vitest';
import { globMatch, lineMatches } from '../../src/modules/alerts/console-match';

describe('console patterns', () => {
  it('matches literal text anywhere in the line', () => {
    expect(lineMatches('OutOfMemory', 'literal', 'java.lang.OutOfMemoryError: heap')).toBe(true);
    expect(lineMatches('*Memory*', 'literal', 'java.lang.OutOfMemoryError')).toBe(false);
  });

  it('matches globs against the whole line', () => {
    expect(globMatch('*OutOfMemory*', 'java.lang.OutOfMemoryError: heap')).toBe(true);
    expect(globMatch('Player ? joined', 'Player A joined')).toBe(true);
    expect(globMatch('Player ? joined', 'Player AB joined')).toBe(false);
    expect(globMatch('*', '')).toBe(true);
    expect(globMatch('a*b', 'a')).toBe(false);
    expect(globMatch('(a+)+$', '(a+)+$')).toBe(true); // regex syntax is plain text here
  });

  it('answers a backtracking-prone pattern on a long line', () => {
    const line = 'a'.repeat(4096);
    expect(lineMatches('*a*a*a*a*a*a*a*a*b', 'glob', line)).toBe(false);
    expect(lineMatches('*a*a*a*a*a*a*a*a*a', 'glob', line)).toBe(true);
  });
});
