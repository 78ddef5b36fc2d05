/**
 * A node going offline and coming back is recorded, as the panel's probes find it: a real listener on the
 * node's port answers (any answer means the node is up), is closed (offline), then listens again (online).
 * The first answer after the panel starts is not a change and records nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp, type TestUser } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';

function listen(port = 0): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"code":"ErrGeneric","msg":"not here"}}');
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe.each(DIALECTS)('node online/offline in the activity log on %s', (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let listener: Server;
  let nodeId: string;
  let port: number;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await createUser(t, { admin: true });
    listener = await listen();
    port = (listener.address() as AddressInfo).port;
    const body = {
      name: `probe-${dialect}`,
      publicHost: '127.0.0.1',
      publicPort: port,
      privateHost: '127.0.0.1',
      privatePort: port,
      sftpPort: 2,
      tlsMode: 'plain',
    };
    const res = await call(t, 'POST', '/api/nodes', { token: admin.token, body });
    expect(res.statusCode, res.body).toBe(200);
    nodeId = res.json<{ id: string }>().id;
  });
  afterAll(async () => {
    if (listener.listening) await close(listener);
    await t?.close();
  });

  /** Probes until the node shows `want` (a stale entry is re-probed in the background on each look). */
  async function until(want: 'online' | 'offline') {
    for (let i = 0; i < 150; i += 1) {
      if ((await t.services.nodeStatus.statuses([nodeId], true)).get(nodeId) === want) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`node never became ${want}`);
  }
  const actions = async () =>
    (await call(t, 'GET', `/api/activity?action=node.&limit=10`, { token: admin.token }))
      .json<ActivityPage>()
      .entries.map((e) => [e.action, e.nodeId, e.actorType]);

  /** The entry is written right after the status flips: look again briefly rather than race it. */
  async function recorded(expected: unknown[]) {
    for (let i = 0; i < 50 && JSON.stringify(await actions()) !== JSON.stringify(expected); i += 1)
      await new Promise((r) => setTimeout(r, 100));
    expect(await actions()).toEqual(expected);
  }

  it('records offline then online, once each', async () => {
    await until('online');
    expect(await actions()).toEqual([]);
    await close(listener);
    await until('offline');
    await recorded([['node.offline', nodeId, 'system']]);
    listener = await listen(port);
    await until('online');
    await recorded([
      ['node.online', nodeId, 'system'],
      ['node.offline', nodeId, 'system'],
    ]);
  });
});
