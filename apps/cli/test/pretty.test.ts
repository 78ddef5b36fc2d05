/** The terminal's short lines (apps/cli/src/console/pretty.ts) from pino's JSON records. */
import { describe, expect, it } from 'vitest';
import { prettyLine } from '../src/console/pretty';

const at = new Date(2026, 0, 2, 3, 4, 5).getTime();
const line = (record: Record<string, unknown>) =>
  JSON.stringify({ time: at, pid: 1, hostname: 'h', ...record });

describe('prettyLine', () => {
  it('shows time, level, component and message, then simple fields', () => {
    expect(prettyLine(line({ level: 30, name: 'daemon', msg: 'SFTP listening', port: 5657 }), false)).toBe(
      '03:04:05 INFO  daemon SFTP listening port=5657',
    );
  });

  it('writes access lines as method and URL, then status and time', () => {
    const req = { method: 'GET', url: '/api/servers', remoteAddress: '127.0.0.1' };
    expect(
      prettyLine(line({ level: 30, name: 'panel', reqId: 'req-1', req, msg: 'incoming request' }), false),
    ).toBe('03:04:05 INFO  panel  GET /api/servers (req-1)');
    const done = { level: 30, name: 'panel', reqId: 'req-1', res: { statusCode: 200 }, responseTime: 3.4 };
    expect(prettyLine(line({ ...done, msg: 'request completed' }), false)).toBe(
      '03:04:05 INFO  panel  ← 200 in 3 ms (req-1)',
    );
  });

  it('adds an error’s message, and its stack at level error', () => {
    const err = { message: 'disk full', stack: 'Error: disk full\n    at write (a.js:1:1)' };
    expect(prettyLine(line({ level: 40, name: 'panel', msg: 'retrying', err }), false)).toBe(
      '03:04:05 WARN  panel  retrying: disk full',
    );
    expect(prettyLine(line({ level: 50, name: 'panel', msg: 'failed', err }), false)).toBe(
      '03:04:05 ERROR panel  failed: disk full\n    at write (a.js:1:1)',
    );
  });

  it('colours the level only when asked, and passes other text through', () => {
    expect(prettyLine(line({ level: 40, name: 'hearth', msg: 'x' }), true)).toContain(
      '\u001b[33mWARN \u001b[0m',
    );
    expect(prettyLine('not JSON at all', true)).toBe('not JSON at all');
    expect(prettyLine('{"no":"level"}', false)).toBe('{"no":"level"}');
  });
});
