/**
 * The whole life of a server over the daemon API and socket with signed tokens, for the fake game under
 * both environments: install → start → command → stats → stop → crash → auto-recover → crash loop → give up.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './helpers/poll';
import { TestSocket } from './helpers/socket';
import { allServerPermissions } from './helpers/tokens';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

for (const env of ['standard', 'tty'] as const) {
  describe(`fake game lifecycle (${env})`, () => {
    let d: TestDaemon;
    let token: string;
    const id = `fake-${env}`;

    beforeAll(async () => {
      // Every run is shorter than a minute here, so each crash counts as unstable: the loop is deterministic.
      d = await startTestDaemon({
        crash: { minUptimeMs: 60_000, maxUnstableRuns: 4, backoffInitialMs: 50, backoffMaxMs: 400 },
      });
      token = await d.user(id, allServerPermissions);
      const created = await d.request('PUT', `/daemon/server/${id}`, {
        token: await d.admin(),
        body: fakeGameDefinition(env),
      });
      expect(created.status).toBe(200);
    });
    afterAll(async () => d.close());

    const status = async () =>
      (await (await d.request('GET', `/daemon/server/${id}/status`, { token })).json()) as {
        running: boolean;
      };

    it('installs, starts, answers a command, reports stats and stops cleanly', async () => {
      const socket = await TestSocket.open(d.url, id, token);
      expect((await d.request('POST', `/daemon/server/${id}/install?wait=true`, { token })).status).toBe(204);
      expect(await readFile(join(d.config.serversDir ?? '', id, 'server.properties'), 'utf8')).toBe(
        'memory=512\n',
      );

      expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`, { token })).status).toBe(204);
      await socket.waitFor((m) => m.type === 'status' && m.data.running === true, 'running status');
      await socket.waitForConsole('fake-game ready');

      socket.send({ type: 'console', command: 'hello there' });
      await socket.waitForConsole('echo: hello there');
      socket.send({ type: 'console', command: 'utf8' });
      await socket.waitForConsole('utf8: héllo wörld ✓ 🎮');

      const stats = (await (await d.request('GET', `/daemon/server/${id}/stats`, { token })).json()) as {
        memory: number;
      };
      expect(stats.memory).toBeGreaterThan(1024 * 1024);
      socket.send({ type: 'stat' });
      await socket.waitFor((m) => m.type === 'stat' && Number(m.data.memory) > 0, 'stat event');

      expect((await d.request('POST', `/daemon/server/${id}/stop?wait=true`, { token })).status).toBe(204);
      expect(await status()).toMatchObject({ running: false });
      await socket.waitForConsole('Stopped on request; no automatic restart.');
      const stopped = (await (
        await d.request('GET', `/daemon/server/${id}/stats`, { token })
      ).json()) as object;
      expect(stopped).toEqual({ cpu: 0, memory: 0 });
      socket.close();
    });

    it('recovers from a crash, then gives up after a crash loop', async () => {
      const socket = await TestSocket.open(d.url, id, token);
      expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`, { token })).status).toBe(204);
      await socket.waitForConsole('fake-game ready');
      socket.send({ type: 'console', command: 'crash' });
      await socket.waitForConsole(
        /Server exited with code 7[^\n]*\n[^\n]*Restarting in [\d.]+ s \(autorecover\)/,
      );
      await waitFor(async () => (await status()).running, 'auto-recovered server');

      const admin = await d.admin(id);
      const bad = { data: { flags: { value: '--crash-on-start' } } };
      expect((await d.request('POST', `/daemon/server/${id}/data`, { token: admin, body: bad })).status).toBe(
        204,
      );
      socket.send({ type: 'console', command: 'crash' });
      await socket.waitForConsole('4 times in a row; giving up');
      expect(await status()).toMatchObject({ running: false });
      const text = socket.consoleText();
      // crash (1) → recovered; crash (2) → crash on start (3) → crash on start (4) → give up
      expect(text.match(/fake-game: crashing on start/g)?.length).toBe(2);
      expect(text).toMatch(/unstable run 3 of 4/);
      socket.close();
    });
  });
}
