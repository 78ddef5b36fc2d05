/** `?wait=` parsing and the power outcomes table of docs/daemon.md, over the daemon API. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allServerPermissions } from './helpers/tokens';
import { waitFor } from './helpers/poll';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

describe('power outcomes', () => {
  let d: TestDaemon;
  let token: string;
  const post = (id: string, action: string, query = '') =>
    d.request('POST', `/daemon/server/${id}/${action}${query}`, { token });
  const outcome = async (res: Response) =>
    res.status >= 400
      ? `${res.status} ${((await res.json()) as { error: { code: string } }).error.code}`
      : `${res.status}`;
  const running = async (id: string) =>
    (
      (await (await d.request('GET', `/daemon/server/${id}/status`, { token })).json()) as {
        running: boolean;
      }
    ).running;

  beforeAll(async () => {
    // A stop the game ignores stays "in progress" until it is killed (the timeout is far away).
    d = await startTestDaemon({
      power: { stopTimeoutMs: 120_000, shutdownTimeoutMs: 5_000, autostartIntervalMs: 50 },
    });
    token = await d.token({ server: '*', perms: allServerPermissions, admin: true });
    const stubborn = fakeGameDefinition();
    stubborn.data.flags.value = '--ignore-stop';
    await d.request('PUT', '/daemon/server/stubborn', { token, body: stubborn });
    const slowStart = fakeGameDefinition('standard', { pre: [{ type: 'command', commands: ['sleep 30'] }] });
    await d.request('PUT', '/daemon/server/slow', { token, body: slowStart });
  });
  afterAll(async () => d.close());

  it('parses wait: true/1 wait (204), false/0/empty/absent answer at once (202), anything else is 400', async () => {
    for (const query of ['?wait=true', '?wait=1'])
      expect(await outcome(await post('stubborn', 'stop', query))).toBe('204');
    for (const query of ['', '?wait=false', '?wait=0', '?wait=']) {
      expect(await outcome(await post('stubborn', 'stop', query))).toBe('202');
    }
    for (const query of ['?wait=yes', '?wait=TRUE', '?wait=true&wait=false']) {
      expect(await outcome(await post('stubborn', 'stop', query))).toBe('400 ErrFieldInvalid');
    }
    expect(await outcome(await post('stubborn', 'kill', '?wait=true'))).toBe('204'); // stopped: nothing happens
  });

  it('another action in progress answers ErrServerBusy to every action but kill, even while running', async () => {
    expect(await outcome(await post('stubborn', 'start', '?wait=true'))).toBe('204');
    expect(await outcome(await post('stubborn', 'start'))).toBe('409 ErrServerRunning');
    expect(await outcome(await post('stubborn', 'stop'))).toBe('202'); // ignored by the game: stays in progress
    for (const action of ['start', 'stop', 'restart', 'install']) {
      expect(await outcome(await post('stubborn', action)), action).toBe('409 ErrServerBusy');
    }
    expect(await outcome(await post('stubborn', 'kill', '?wait=true'))).toBe('204');
    await waitFor(async () => !(await running('stubborn')), 'stubborn stopped');
    // The stop in progress ends with the kill; the lock is free again.
    await waitFor(async () => (await post('stubborn', 'stop', '?wait=true')).status === 204, 'stop accepted');
  });

  it('a stop while a start runs its pre hooks is ErrServerBusy, and a kill aborts the start', async () => {
    expect(await outcome(await post('slow', 'start'))).toBe('202');
    expect(await outcome(await post('slow', 'stop'))).toBe('409 ErrServerBusy');
    expect(await outcome(await post('slow', 'start'))).toBe('409 ErrServerBusy');
    expect(await outcome(await post('slow', 'kill', '?wait=true'))).toBe('204');
    await waitFor(async () => (await post('slow', 'stop', '?wait=true')).status === 204, 'lock released');
    expect(await running('slow')).toBe(false);
  });
});
