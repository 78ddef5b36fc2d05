/**
 * The uptime in the console's exit line (lifecycle.ts) is measured from this run's spawn: a process that dies at
 * once on its very first start reports a fraction of a second, not the time since the epoch
 * (docs/daemon.md § Server states).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './helpers/poll';
import { TestSocket } from './helpers/socket';
import { allServerPermissions } from './helpers/tokens';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

const EXIT_LINE = /Server exited with code 1 after ([\d.]+) s/;

for (const env of ['standard', 'tty'] as const) {
  describe(`first failed start (${env})`, () => {
    let d: TestDaemon;
    const id = `false-${env}`;

    beforeAll(async () => {
      d = await startTestDaemon({
        crash: { minUptimeMs: 60_000, maxUnstableRuns: 1, backoffInitialMs: 50, backoffMaxMs: 50 },
      });
      const definition = { ...fakeGameDefinition(env), run: { command: '/bin/false', stop: 'stop' } };
      const created = await d.request('PUT', `/daemon/server/${id}`, {
        token: await d.admin(),
        body: definition,
      });
      expect(created.status).toBe(200);
    });
    afterAll(async () => d.close());

    it('reports the seconds this run lasted, then a second run the same way', async () => {
      const token = await d.user(id, allServerPermissions);
      const socket = await TestSocket.open(d.url, id, token);
      for (let run = 1; run <= 2; run++) {
        await d.request('POST', `/daemon/server/${id}/start?wait=true`, { token });
        await waitFor(
          () => (socket.consoleText().match(new RegExp(EXIT_LINE, 'g')) ?? []).length >= run,
          `exit line of run ${run}`,
        );
      }
      const seconds = [...socket.consoleText().matchAll(new RegExp(EXIT_LINE, 'g'))].map((m) => Number(m[1]));
      expect(seconds).toHaveLength(2);
      // /bin/false ends at once; anything near an hour could only come from a start time of 0 or a stale one.
      for (const s of seconds) expect(s).toBeLessThan(3600);
      socket.close();
    });
  });
}
