/**
 * A real dedicated game server from Debian (freeciv-server) driven through the daemon API and socket, under
 * `standard` and `tty`: install → start → console command → stats → stop with its own `quit` → crash (a signal
 * nobody asked for) → auto-recover → crash loop (a bad ruleset makes it exit 1 at once) → give up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freecivPid, FREECIV, requireFreeciv } from './helpers/freeciv';
import { waitFor } from './helpers/poll';
import { TestSocket } from './helpers/socket';
import { allServerPermissions } from './helpers/tokens';
import { startTestDaemon, type TestDaemon } from './helpers/test-daemon';

const available = requireFreeciv();

function freecivDefinition(env: 'standard' | 'tty', port: number) {
  return {
    type: 'freeciv',
    display: 'Freeciv',
    data: {
      port: { type: 'integer', value: port, display: 'Port' },
      extra: { type: 'string', value: '', display: 'Extra arguments' },
    },
    install: [{ type: 'writefile', target: 'hearth.serv', text: 'set timeout 0\nset minplayers 1\n' }],
    run: {
      command: `${FREECIV} -b 127.0.0.1 -p \${port} -r hearth.serv \${extra}`,
      stop: 'quit',
      autorecover: true,
    },
    environment: { type: env },
  };
}

for (const env of ['standard', 'tty'] as const) {
  describe.skipIf(!available)(`freeciv-server (${env})`, () => {
    let d: TestDaemon;
    let token: string;
    const id = `freeciv-${env}`;
    const port = 20000 + Math.floor(Math.random() * 20000);

    beforeAll(async () => {
      d = await startTestDaemon({
        crash: { minUptimeMs: 600_000, maxUnstableRuns: 3, backoffInitialMs: 100, backoffMaxMs: 400 },
      });
      token = await d.user(id, allServerPermissions);
      const body = freecivDefinition(env, port);
      expect((await d.request('PUT', `/daemon/server/${id}`, { token: await d.admin(), body })).status).toBe(
        200,
      );
    });
    afterAll(async () => d?.close());

    const running = async () =>
      (
        (await (await d.request('GET', `/daemon/server/${id}/status`, { token })).json()) as {
          running: boolean;
        }
      ).running;

    it('installs, starts, answers `list`, reports stats and quits cleanly', async () => {
      const socket = await TestSocket.open(d.url, id, token);
      expect((await d.request('POST', `/daemon/server/${id}/install?wait=true`, { token })).status).toBe(204);
      expect((await d.request('POST', `/daemon/server/${id}/start?wait=false`, { token })).status).toBe(202);
      await socket.waitForConsole(`Now accepting new client connections on port ${port}`);
      socket.send({ type: 'console', command: 'list' });
      await socket.waitForConsole('List of players');
      socket.send({ type: 'console', command: 'show minplayers' });
      await socket.waitForConsole(/minplayers\s+\S+\s+1 \(/);
      const stats = (await (await d.request('GET', `/daemon/server/${id}/stats`, { token })).json()) as {
        memory: number;
      };
      expect(stats.memory).toBeGreaterThan(0);
      expect((await d.request('POST', `/daemon/server/${id}/stop?wait=true`, { token })).status).toBe(204);
      await socket.waitForConsole('Server exited with code 0');
      expect(socket.consoleText()).toContain('Stopped on request; no automatic restart.');
      expect(await running()).toBe(false);
      socket.close();
    });

    it('recovers after a crash and gives up on a crash loop', async () => {
      const socket = await TestSocket.open(d.url, id, token);
      expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`, { token })).status).toBe(204);
      await socket.waitForConsole(`Now accepting new client connections on port ${port}`);
      const pid = await waitFor(() => freecivPid(port), 'freeciv pid');
      process.kill(pid, 'SIGSEGV');
      await socket.waitForConsole(/Server exited with signal SIGSEGV[\s\S]*Restarting in/);
      await waitFor(async () => (await running()) && freecivPid(port) !== pid, 'recovered freeciv');

      // One value is one argument (docs/daemon.md), so the option takes its value after '='.
      const data = { data: { extra: { value: '--ruleset=no-such-ruleset' } } };
      expect(
        (await d.request('POST', `/daemon/server/${id}/data`, { token: await d.admin(id), body: data }))
          .status,
      ).toBe(204);
      const second = await waitFor(() => freecivPid(port), 'freeciv pid');
      process.kill(second, 'SIGSEGV');
      await socket.waitForConsole('3 times in a row; giving up');
      expect(socket.consoleText()).toContain('Ruleset directory "no-such-ruleset" not found');
      expect(await running()).toBe(false);
      socket.close();
    });
  });
}
