/**
 * Panel ↔ real daemon: a node registered from its deployment config, a server created on it,
 * driven through the proxy with panel-signed tokens, per-server authorization, and the node going down.
 * Cross-app (panel + daemon in-process), hence e2e/: panel tests may not import the daemon.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUser, type TestApp } from '../apps/panel/test/helpers/app';
import { DIALECTS } from '../apps/panel/test/helpers/dialects';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { codeOf, panelWithNode, stopPanelWithNode, type RegisteredNode } from './helpers/node-fixture';

describe.each(DIALECTS)('nodes and servers against a real daemon on %s', (dialect) => {
  let t: TestApp;
  let node: RegisteredNode;
  let admin: string;
  let serverId: string;

  beforeAll(async () => {
    ({ t, admin, node } = await panelWithNode(dialect, 'n1', { withSecret: false }));
  });
  afterAll(() => stopPanelWithNode(t, node));

  it('creates a server on the node; a refused definition leaves nothing behind', async () => {
    const body = { ...fakeGameDefinition(), name: 'fake one', node: node.id, users: [] };
    expect((await call(t, 'POST', '/api/servers', { body })).statusCode).toBe(401);
    const bad = await call(t, 'POST', '/api/servers', {
      token: admin,
      body: { ...body, name: 'bad one', run: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect((await call(t, 'GET', '/api/servers', { token: admin })).json()).toMatchObject({
      paging: { total: 0 },
    });
    const res = await call(t, 'POST', '/api/servers', { token: admin, body });
    expect(res.statusCode).toBe(200);
    serverId = res.json<{ id: string }>().id;
    expect(serverId).toMatch(/^[0-9a-f]{8}$/);
    const dup = await call(t, 'POST', '/api/servers', { token: admin, body });
    expect(codeOf(dup)).toBe('ErrDuplicateServerName');
    const list = (await call(t, 'GET', '/api/servers', { token: admin })).json<{
      servers: Array<{ id: string; node: { id: string }; address: string }>;
    }>();
    expect(list.servers.map((s) => [s.id, s.node.id])).toEqual([[serverId, node.id]]);
  });

  it('drives the server through the proxy: install, start, console, stop', async () => {
    const base = `/proxy/daemon/server/${serverId}`;
    expect((await call(t, 'POST', `${base}/install?wait=true`, { token: admin })).statusCode).toBe(204);
    expect((await call(t, 'POST', `${base}/start?wait=true`, { token: admin })).statusCode).toBe(204);
    expect((await call(t, 'GET', `${base}/status`, { token: admin })).json()).toMatchObject({
      running: true,
    });
    const consoleRes = await call(t, 'GET', `${base}/console`, { token: admin });
    expect(consoleRes.json<{ logs: string }>().logs).toContain('[DAEMON] Installing server');
    expect((await call(t, 'POST', `${base}/stop?wait=true`, { token: admin })).statusCode).toBe(204);
    expect((await call(t, 'GET', `${base}/status`, { token: admin })).json()).toMatchObject({
      running: false,
    });
  });

  it('per-server authorization: no access → 404, view only → 403 on actions, granted → allowed', async () => {
    const other = await createUser(t);
    const base = `/proxy/daemon/server/${serverId}`;
    expect((await call(t, 'GET', `/api/servers/${serverId}`, { token: other.token })).statusCode).toBe(404);
    expect((await call(t, 'POST', `${base}/start`, { token: other.token })).statusCode).toBe(404);
    expect(
      (await call(t, 'PUT', `/api/servers/${serverId}/user/${other.email}`, { token: admin, body: {} }))
        .statusCode,
    ).toBe(204);
    expect((await call(t, 'GET', `${base}/status`, { token: other.token })).statusCode).toBe(200);
    expect((await call(t, 'POST', `${base}/start`, { token: other.token })).statusCode).toBe(403);
    expect(
      (
        await call(t, 'POST', `${base}/console`, {
          token: other.token,
          body: 'x',
          headers: { 'content-type': 'text/plain' },
        })
      ).statusCode,
    ).toBe(403);
    const detail = await call(t, 'GET', `/api/servers/${serverId}?perms`, { token: other.token });
    expect(detail.json()).toMatchObject({ permissions: { startServer: false, deleteServer: false } });
    await call(t, 'PUT', `/api/servers/${serverId}/user/${other.email}`, {
      token: admin,
      body: { viewServerStats: true },
    });
    expect((await call(t, 'GET', `${base}/stats`, { token: other.token })).statusCode).toBe(200);
    const mine = (await call(t, 'GET', '/api/servers', { token: other.token })).json<{
      paging: { total: number };
    }>();
    expect(mine.paging.total).toBe(1);
  });

  it('rename: special characters refused, then renamed', async () => {
    expect((await call(t, 'PUT', `/api/servers/${serverId}/name/a%3Cb`, { token: admin })).statusCode).toBe(
      400,
    );
    expect((await call(t, 'PUT', `/api/servers/${serverId}/name/renamed`, { token: admin })).statusCode).toBe(
      204,
    );
    expect((await call(t, 'GET', `/api/servers/${serverId}`, { token: admin })).json()).toMatchObject({
      server: { name: 'renamed' },
    });
  });

  it('node down: the list loads, actions answer ErrNodeOffline, delete works with a warning', async () => {
    await node.daemon.close();
    expect((await call(t, 'GET', '/api/servers', { token: admin })).statusCode).toBe(200);
    const start = await call(t, 'POST', `/proxy/daemon/server/${serverId}/start`, { token: admin });
    expect(codeOf(start)).toBe('ErrNodeOffline');
    const del = await call(t, 'DELETE', `/api/servers/${serverId}`, { token: admin });
    expect(del.statusCode).toBe(200);
    expect(del.json<{ warning: string }>().warning).toContain('not reachable');
    expect((await call(t, 'GET', `/api/servers/${serverId}`, { token: admin })).statusCode).toBe(404);
  });
});
