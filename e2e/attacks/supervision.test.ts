/**
 * Finding: SIGKILL of the daemon orphaned standard servers and the next daemon started a second copy on the same
 * port and files. Now (docs/daemon.md § Supervision): a real panel, a node started by the real `hearth daemon
 * --config node.json` from its deployment config, a server listening on a TCP port. The daemon is killed with
 * SIGKILL and started again on the same data: the same game process still holds the port, the panel reports it
 * running, a start through the panel is refused (ErrServerRunning), there is exactly one game process, the
 * console reaches it, and a stop frees the port. An upgrade's SIGUSR2 makes the daemon leave the same way, by
 * itself, while a SIGTERM still stops the server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, createUser, type TestApp } from '../../apps/panel/test/helpers/app';
import { waitFor } from '../../apps/daemon/test/helpers/poll';
import { counterGameDefinition } from '../../apps/daemon/test/supervision/daemon-child';
import { gamePid, killEverythingUnder, pidsWith } from '../../apps/daemon/test/supervision/processes';
import { startDeployedNode, type DeployedNode } from '../helpers/deployed-node';
import { freePort, tcpAccepts } from '../helpers/net';

describe('a daemon killed with SIGKILL never runs a server twice', { timeout: 180_000 }, () => {
  let t: TestApp;
  let admin: string;
  let config: Record<string, unknown>;
  let daemon: DeployedNode | undefined;
  let serverId: string;
  let gamePort: number;
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-e2e-supervision-'));
  const marker = `--tag e2e-supervision-${process.pid}`;

  /** The node's daemon from the same deployment config and data folder each time. */
  const startNode = async () => {
    daemon = await startDeployedNode(config, { env: { HEARTH_DAEMON_DATA_DIR: dataDir } });
    await waitFor(
      async () => (await call(t, 'GET', '/api/nodes', { token: admin })).statusCode === 200,
      'panel',
    );
  };
  const proxy = (method: string, action: string, body?: unknown) =>
    call(t, method, `/proxy/daemon/server/${serverId}/${action}`, {
      token: admin,
      ...(body ? { body } : {}),
    });

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    admin = (await createUser(t, { admin: true })).token;
    const [daemonPort, sftpPort] = [await freePort(), await freePort()];
    gamePort = await freePort();
    const node = { name: 'node', publicHost: '127.0.0.1', privateHost: '127.0.0.1', sftpPort };
    const body = { ...node, publicPort: daemonPort, privatePort: daemonPort };
    const { id } = (await call(t, 'POST', '/api/nodes', { token: admin, body })).json<{ id: string }>();
    const shown = await call(t, 'GET', `/api/nodes/${id}/deployment`, { token: admin });
    config = shown.json<{ config: Record<string, unknown> }>().config;
    await startNode();
    const definition = counterGameDefinition('standard', `--port ${gamePort} ${marker}`);
    const server = { ...definition, name: 'one copy only', node: id, users: [] };
    serverId = (await call(t, 'POST', '/api/servers', { token: admin, body: server })).json<{ id: string }>()
      .id;
  });

  afterAll(async () => {
    daemon?.process.kill('SIGKILL');
    await daemon?.stop();
    await killEverythingUnder(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    await t?.close();
  });

  it('re-adopts the game after SIGKILL: one process on the port, start refused, console and stop work', async () => {
    expect((await proxy('POST', 'start?wait=true')).statusCode).toBe(204);
    await waitFor(() => tcpAccepts(gamePort), 'the game listening');
    const pid = await gamePid(marker);

    const killed = daemon;
    killed?.process.kill('SIGKILL');
    await killed?.stop();
    expect(await tcpAccepts(gamePort)).toBe(true); // the game outlived its daemon
    expect(await pidsWith(marker)).toEqual([pid]);

    await startNode();
    const status = await waitFor(async () => {
      const res = await proxy('GET', 'status');
      return res.statusCode === 200 ? res.json<{ running: boolean }>() : null;
    }, 'the node back');
    expect(status).toMatchObject({ running: true });
    const again = await proxy('POST', 'start?wait=true');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: 'ErrServerRunning' } });
    expect(await pidsWith(marker)).toEqual([pid]); // never a second copy
    expect(await tcpAccepts(gamePort)).toBe(true);

    expect((await proxy('POST', 'console', { command: 'still the same game' })).statusCode).toBe(204);
    await waitFor(async () => {
      const { logs } = (await proxy('GET', 'console')).json<{ logs: string }>();
      return logs.includes('echo: still the same game') && logs.includes('Re-attached to the running server');
    }, 'the echo after the re-attach');

    expect((await proxy('POST', 'stop?wait=true')).statusCode).toBe(204);
    expect(await pidsWith(marker)).toEqual([]);
    expect(await tcpAccepts(gamePort)).toBe(false);
  });

  it('SIGUSR2 (an upgrade) leaves the game running for the next daemon; SIGTERM still stops it', async () => {
    expect((await proxy('POST', 'start?wait=true')).statusCode).toBe(204);
    await waitFor(() => tcpAccepts(gamePort), 'the game listening');
    const pid = await gamePid(marker);
    const leaving = daemon;
    const exited = new Promise((resolve) => leaving?.process.once('exit', (code) => resolve(code)));
    leaving?.process.kill('SIGUSR2');
    expect(await exited).toBe(0); // the daemon ends by itself
    await leaving?.stop();
    expect(leaving?.output()).toContain('leaving servers running for the next daemon');
    expect(await pidsWith(marker)).toEqual([pid]);

    await startNode();
    const status = await waitFor(async () => {
      const res = await proxy('GET', 'status');
      return res.statusCode === 200 ? res.json<{ running: boolean }>() : null;
    }, 'the node back');
    expect(status).toMatchObject({ running: true });
    expect(await pidsWith(marker)).toEqual([pid]);

    const stopping = daemon;
    await stopping?.stop(); // SIGTERM: the normal shutdown stops the server
    expect(await pidsWith(marker)).toEqual([]);
    expect(await tcpAccepts(gamePort)).toBe(false);
    await startNode();
  });
});
