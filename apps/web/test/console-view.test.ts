import { describe, expect, it } from 'vitest';
import { atBottom, copyText, filterLines, plainLine } from '../src/features/servers/console/console-view';

describe('console view rules', () => {
  const lines = ['\u001b[32mPlayer joined\u001b[0m', '[DAEMON] Server started', 'player left'];

  it('a search keeps the lines containing it, ignoring case and colour codes', () => {
    expect(filterLines(lines, 'PLAYER')).toEqual([lines[0], lines[2]]);
    expect(filterLines(lines, 'daemon')).toEqual([lines[1]]);
    expect(filterLines(lines, '32m')).toEqual([]);
    expect(filterLines(lines, '  ')).toBe(lines);
  });

  it('copy gives plain text, one line each', () => {
    expect(plainLine('\u001b[32mPlayer joined\u001b[0m')).toBe('Player joined');
    expect(copyText(lines)).toBe('Player joined\n[DAEMON] Server started\nplayer left');
  });

  it('the bottom allows a few pixels of slack', () => {
    expect(atBottom({ scrollTop: 500, scrollHeight: 1000, clientHeight: 500 })).toBe(true);
    expect(atBottom({ scrollTop: 497, scrollHeight: 1000, clientHeight: 500 })).toBe(true);
    expect(atBottom({ scrollTop: 300, scrollHeight: 1000, clientHeight: 500 })).toBe(false);
  });
});
