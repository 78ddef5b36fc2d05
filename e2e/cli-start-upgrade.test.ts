/**
 * An upgrade of `hearth start` (hearth.service) keeps game servers running (docs/operations.md § Upgrades,
 * docs/daemon.md § Supervision): a real `hearth start` with a running server on its local node gets SIGUSR2 (what
 * the package's prerm sends before the files change), exits 0 by itself, and the game process is still alive. A
 * new `hearth start` on the same config and data re-adopts it: the panel reports it running, a start is refused
 * (never a second copy), the console reaches the same process and shows the re-attach line. SIGTERM (a stop of the
 * service) still stops the server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../apps/daemon/test/helpers/poll';
import { counterGameDefinition } from '../apps/daemon/test/supervision/daemon-child';
import { gamePid, killEverythingUnder, pidsWith } from '../apps/daemon/test/supervision/processes';
import { restartHearth, startHearth, type HearthStart } from './deploy/helpers/hearth-start';
import { freePort, tcpAccepts } from './helpers/net';

const admin = { username: 'admin', email: 'admin@example.com', password: 'admin-password-1' };

describe(
  'hearth start: an upgrade (SIGUSR2) leaves the local node’s servers running',
  { timeout: 180_000 },
  () => {
    let dir: string;
    let hearth: HearthStart | undefined;
    let session = '';
    let serverId = '';
    let gamePort = 0;
    const marker = `--tag e2e-start-upgrade-${process.pid}`;

    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`http://127.0.0.1:${hearth?.port}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${session}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, text, json: <T>() => JSON.parse(text) as T };
    };
    const proxy = (method: string, action: string, body?: unknown) =>
      api(method, `/proxy/daemon/server/${serverId}/${action}`, body);

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'hearth-start-upgrade-'));
      hearth = await startHearth(dir);
      const token = new URL(hearth.setupUrl).searchParams.get('token');
      const setup = await fetch(`http://127.0.0.1:${hearth.port}/auth/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...admin, token }),
      });
      expect(setup.status, await setup.clone().text()).toBe(200);
      session = ((await setup.json()) as { session: string }).session;
      gamePort = await freePort();
      const definition = counterGameDefinition('standard', `--port ${gamePort} ${marker}`);
      const created = await api('POST', '/api/servers', {
        ...definition,
        name: 'kept running',
        node: 'local',
        users: [],
      });
      expect(created.status, created.text).toBe(200);
      serverId = created.json<{ id: string }>().id;
    }, 120_000);

    afterAll(async () => {
      await hearth?.stop();
      if (dir) {
        await killEverythingUnder(join(dir, 'data'));
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('SIGUSR2: hearth start exits 0, the game lives on, the next hearth start re-adopts it', async () => {
      const started = await proxy('POST', 'start?wait=true');
      expect(started.status, started.text).toBe(204);
      await waitFor(() => tcpAccepts(gamePort), 'the game listening');
      const pid = await gamePid(marker);

      const leaving = hearth as HearthStart;
      const exited = new Promise((resolve) => leaving.process.once('exit', (code) => resolve(code)));
      leaving.process.kill('SIGUSR2');
      expect(await exited).toBe(0);
      expect(await pidsWith(marker)).toEqual([pid]);
      expect(await tcpAccepts(gamePort)).toBe(true);

      hearth = await restartHearth(dir, leaving);
      const status = await waitFor(async () => {
        const res = await proxy('GET', 'status');
        return res.status === 200 ? res.json<{ running: boolean }>() : null;
      }, 'the local node back');
      expect(status).toMatchObject({ running: true });
      const again = await proxy('POST', 'start?wait=true');
      expect(again.status).toBe(409);
      expect(again.text).toContain('ErrServerRunning');
      expect(await pidsWith(marker)).toEqual([pid]);

      // The console reaches the same process after the re-attach.
      expect((await proxy('POST', 'console', { command: 'after the upgrade' })).status).toBe(204);
      await waitFor(async () => {
        const res = await proxy('GET', 'console');
        const logs = res.status === 200 ? res.json<{ logs: string }>().logs : '';
        return logs.includes('echo: after the upgrade') && logs.includes('Re-attached to the running server');
      }, 'the echo after the re-attach');
    });

    it('SIGTERM (a stop of the service) still stops the server', async () => {
      expect(await pidsWith(marker)).toHaveLength(1);
      await hearth?.stop();
      await waitFor(async () => (await pidsWith(marker)).length === 0, 'the game stopped');
      expect(await tcpAccepts(gamePort)).toBe(false);
    });
  },
);
