/**
 * Moving servers between two real daemons through the panel (docs/operations.md § Moving a server between
 * nodes): a stopped server and a running one, each with a tree of files (a few MiB of random bytes among them).
 * After the move every file is on B with the same SHA-256, the panel's row names B, the running one runs again
 * on B, A has neither files nor definition left, an open console socket saw the progress and the result and
 * then talks to B, and the activity log has the start and the end. The refusals come first: same node, an
 * unknown node, a node that is down, and a server user who is not an administrator.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferState } from '@hearth/contract';
import { call, createUser, type TestApp } from '../apps/panel/test/helpers/app';
import { DIALECTS } from '../apps/panel/test/helpers/dialects';
import { waitFor } from '../apps/daemon/test/helpers/poll';
import {
  codeOf,
  createFakeServer,
  listeningPanel,
  registerNode,
  type RegisteredNode,
} from './helpers/node-fixture';
import { freePort } from './helpers/net';
import { hashTree, openSocket, settled, writeTree } from './helpers/transfer-fixture';

describe.each(DIALECTS)('server transfer between two nodes on %s', { timeout: 600_000 }, (dialect) => {
  let t: TestApp;
  let url: string;
  let admin: string;
  let a: RegisteredNode;
  let b: RegisteredNode;
  const ids = { stopped: '', running: '' };

  const proxy = (id: string, action: string) =>
    call(t, 'POST', `/proxy/daemon/server/${id}/${action}`, { token: admin });
  const status = async (id: string) =>
    (await call(t, 'GET', `/proxy/daemon/server/${id}/status`, { token: admin })).json<{
      running: boolean;
    }>();
  const transfer = (id: string, node: string, token = admin) =>
    call(t, 'POST', `/api/servers/${id}/transfer`, { token, body: { node } });

  beforeAll(async () => {
    ({ t, url } = await listeningPanel(dialect));
    admin = (await createUser(t, { admin: true })).token;
    a = await registerNode(t, admin, 'node-a', '127.0.0.1');
    b = await registerNode(t, admin, 'node-b', '127.0.0.2');
    for (const name of ['stopped', 'running'] as const) {
      ids[name] = await createFakeServer(t, admin, a.id, `moving ${name}`);
      expect((await proxy(ids[name], 'install?wait=true')).statusCode).toBe(204);
      writeTree(join(a.serversDir, ids[name]), name === 'stopped' ? 6 : 3);
    }
    expect((await proxy(ids.running, 'start?wait=true')).statusCode).toBe(204);
  });
  afterAll(async () => {
    await a?.daemon.close();
    await b?.daemon.close();
    await t?.close();
  });

  it('refuses the same node, an unknown node, a node that is down, and non-administrators', async () => {
    const same = await transfer(ids.stopped, a.id);
    expect([same.statusCode, codeOf(same)]).toEqual([400, 'ErrTransferSameNode']);
    const unknown = await transfer(ids.stopped, 'no-such-node');
    expect([unknown.statusCode, codeOf(unknown)]).toEqual([404, 'ErrNodeNotFound']);
    const port = await freePort();
    const down = { name: 'down', publicHost: '127.0.0.1', publicPort: port, privateHost: '127.0.0.1' };
    const created = await call(t, 'POST', '/api/nodes', {
      token: admin,
      body: { ...down, privatePort: port, sftpPort: 2 },
    });
    const offline = await transfer(ids.stopped, created.json<{ id: string }>().id);
    expect([offline.statusCode, codeOf(offline)]).toEqual([502, 'ErrNodeOffline']);
    // A holder of every server flag is still no administrator.
    const owner = await createUser(t);
    const flags = { editServerData: true, startServer: true, stopServer: true, viewServerConsole: true };
    await call(t, 'PUT', `/api/servers/${ids.stopped}/user/${owner.email}`, { token: admin, body: flags });
    expect((await transfer(ids.stopped, b.id, owner.token)).statusCode).toBe(403);
    const none = await call(t, 'GET', `/api/servers/${ids.stopped}/transfer`, { token: admin });
    expect([none.statusCode, codeOf(none)]).toEqual([404, 'ErrTransferNotFound']);
    // Nothing moved: the server is still A's, stopped, its files in place.
    expect((await call(t, 'GET', `/api/servers/${ids.stopped}`, { token: admin })).json()).toMatchObject({
      server: { node: { id: a.id } },
    });
  });

  it('moves a stopped server: files identical on B, gone from A, the row names B, still stopped', async () => {
    const before = hashTree(join(a.serversDir, ids.stopped));
    expect(Object.keys(before).length).toBeGreaterThan(8);
    const started = await transfer(ids.stopped, b.id);
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ server: ids.stopped, from: a.id, to: b.id, error: null });
    const end = await settled(t, admin, ids.stopped);
    expect(end).toMatchObject({ phase: 'done', error: null, wasRunning: false, leftover: null });
    expect(end.bytes).toBeGreaterThan(6 * 1024 * 1024);
    expect(hashTree(join(b.serversDir, ids.stopped))).toEqual(before);
    expect(existsSync(join(b.serversDir, ids.stopped, 'server.properties'))).toBe(true);
    expect(existsSync(join(a.serversDir, ids.stopped))).toBe(false);
    expect(existsSync(join(a.serversDir, `${ids.stopped}.json`))).toBe(false);
    const view = await call(t, 'GET', `/api/servers/${ids.stopped}`, { token: admin });
    expect(view.json()).toMatchObject({ server: { node: { id: b.id } } });
    expect(await status(ids.stopped)).toMatchObject({ running: false });
    // Installed on B: it starts there without an install.
    expect((await proxy(ids.stopped, 'start?wait=true')).statusCode).toBe(204);
    expect((await proxy(ids.stopped, 'stop?wait=true')).statusCode).toBe(204);
  });

  it('moves a running server: the socket sees progress and the result, then talks to B; it runs on B', async () => {
    const before = hashTree(join(a.serversDir, ids.running));
    const socket = await openSocket(url, ids.running, admin);
    expect((await transfer(ids.running, b.id)).statusCode).toBe(202);
    const end: TransferState = await settled(t, admin, ids.running);
    expect(end).toMatchObject({ phase: 'done', wasRunning: true, error: null });
    await waitFor(() => socket.of('transfer-done').length === 1, 'transfer-done on the socket');
    expect(socket.of('transfer-done')[0]?.data).toEqual({ ok: true, node: b.id });
    const phases = socket.of('transfer-progress').map((m) => m.data.phase);
    expect(phases).toEqual(expect.arrayContaining(['stopping', 'preparing', 'copying', 'verifying']));
    expect(phases).toContain('starting');
    expect(hashTree(join(b.serversDir, ids.running))).toEqual(before);
    expect(existsSync(join(a.serversDir, ids.running))).toBe(false);
    expect(await status(ids.running)).toMatchObject({ running: true });
    // The relay reopened on B: a status asked now comes from B's daemon, and the socket never closed.
    socket.send({ type: 'status' });
    await waitFor(() => socket.of('status').some((m) => m.data.running === true), 'a status from B');
    expect(socket.closed).toBeNull();
    socket.ws.close();
    const activity = await call(t, 'GET', `/api/servers/${ids.running}/activity?action=server.transfer.`, {
      token: admin,
    });
    const actions = activity.json<{ entries: Array<{ action: string; details: object }> }>().entries;
    expect(actions.map((e) => e.action).sort()).toEqual([
      'server.transfer.finished',
      'server.transfer.started',
    ]);
    expect(actions.find((e) => e.action === 'server.transfer.finished')?.details).toMatchObject({
      from: a.id,
      to: b.id,
    });
    expect((await proxy(ids.running, 'stop?wait=true')).statusCode).toBe(204);
  });
});
