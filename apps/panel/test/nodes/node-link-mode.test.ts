/**
 * A node's link mode through the API (docs/api.md § Nodes, `link`): inbound by default and for clients that send
 * no `link`, the local node never outbound, an outbound node's SFTP port is a port the panel relays on — unique
 * among outbound nodes and none of the panel's own — and its deployment dials the panel from loopback.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';

/** The panel's web port in these apps (never listened on: requests are injected). */
const WEB_PORT = 18_080;

const body = (over: Record<string, unknown> = {}) => ({
  name: 'far-1',
  publicHost: 'panel.example.com',
  publicPort: 8443,
  privateHost: '10.9.0.5',
  privatePort: 8443,
  sftpPort: 2022,
  ...over,
});

interface View {
  id: string;
  link: string;
  sftpPort: number;
  linkState: null | {
    connected: boolean;
    connects: number;
    sftpRelay: { port: number; listening: boolean; error: string | null };
  };
}

const errorOf = (res: { json: <T>() => T }) =>
  res.json<{ error: { code: string; metadata?: object } }>().error;

describe.each(DIALECTS)('node link mode on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let editor: string;
  let viewer: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { web: { port: WEB_PORT } });
    admin = (await createUser(t, { admin: true })).token;
    editor = (await createUser(t, { viewNodes: true, editNodes: true })).token;
    viewer = (await createUser(t, { viewNodes: true })).token;
  });
  afterAll(() => t?.close());

  const create = (over: Record<string, unknown>, token = admin) =>
    call(t, 'POST', '/api/nodes', { token, body: body(over) });

  it('a node created without `link` is inbound, with no link state; its deployment listens everywhere', async () => {
    const res = await create({ name: 'in-1' });
    expect(res.statusCode).toBe(200);
    const node = res.json<View & { deployment: { config: Record<string, unknown> } }>();
    expect(node).toMatchObject({ link: 'inbound', linkState: null });
    expect(node.deployment.config).not.toHaveProperty('link');
    expect(node.deployment.config).toMatchObject({ host: '0.0.0.0', sftp: { port: 2022 } });
    const list = (await call(t, 'GET', '/api/nodes', { token: viewer })).json<View[]>();
    expect(list.find((n) => n.id === 'local')).toMatchObject({ link: 'inbound', linkState: null });
  });

  it('an outbound node: waiting for its daemon, relay port shown; deployment dials the panel from loopback', async () => {
    const res = await create({ name: 'out-1', link: 'outbound', sftpPort: 2201 }, editor);
    expect(res.statusCode).toBe(200);
    const node = res.json<
      View & { deployment: { config: Record<string, unknown>; installSteps: string[] } }
    >();
    expect(node.link).toBe('outbound');
    expect(node.linkState).toMatchObject({
      connected: false,
      connects: 0,
      sftpRelay: { port: 2201, listening: false, error: null },
    });
    expect(node.deployment.config).toMatchObject({
      link: 'outbound',
      host: '127.0.0.1',
      panelUrl: expect.stringMatching(/^http/) as unknown,
      sftp: { host: '127.0.0.1', port: 2201 },
    });
    expect(node.deployment.installSteps[0]).toContain('"link": "outbound"');
    const got = (await call(t, 'GET', `/api/nodes/${node.id}`, { token: viewer })).json<View>();
    expect(got).toMatchObject({ link: 'outbound', linkState: { connected: false } });
    const dep = await call(t, 'GET', `/api/nodes/${node.id}/deployment`, { token: admin });
    expect(dep.json()).toMatchObject({ config: { link: 'outbound', host: '127.0.0.1' } });
  });

  it("ErrNodeLinkPort: another outbound node's relay port, or one the panel binds itself (409 {port})", async () => {
    expect((await create({ name: 'out-2', link: 'outbound', sftpPort: 2202 })).statusCode).toBe(200);
    for (const port of [2202, WEB_PORT, 5656, 5657]) {
      const res = await create({ name: 'out-x', link: 'outbound', sftpPort: port, publicPort: 8443 });
      expect(res.statusCode, String(port)).toBe(409);
      expect(errorOf(res)).toMatchObject({ code: 'ErrNodeLinkPort', metadata: { port } });
    }
    // An inbound node's SFTP port is on its own machine: the same number is fine.
    expect((await create({ name: 'in-2202', sftpPort: 2202 })).statusCode).toBe(200);
  });

  it('update: switching modes follows the same rules; a partial update keeps the mode', async () => {
    const inbound = (await create({ name: 'flip', sftpPort: 2202 })).json<View>();
    const url = `/api/nodes/${inbound.id}`;
    const taken = await call(t, 'PUT', url, { token: admin, body: { link: 'outbound' } });
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken)).toMatchObject({ code: 'ErrNodeLinkPort', metadata: { port: 2202 } });
    expect((await call(t, 'GET', url, { token: admin })).json()).toMatchObject({ link: 'inbound' });
    const ok = await call(t, 'PUT', url, { token: admin, body: { link: 'outbound', sftpPort: 2203 } });
    expect(ok.statusCode).toBe(204);
    expect((await call(t, 'PUT', url, { token: admin, body: { publicPort: 8444 } })).statusCode).toBe(204);
    expect((await call(t, 'GET', url, { token: admin })).json()).toMatchObject({
      link: 'outbound',
      sftpPort: 2203,
      publicPort: 8444,
    });
    // Its own port is not "taken" by itself.
    expect((await call(t, 'PUT', url, { token: admin, body: { sftpPort: 2203 } })).statusCode).toBe(204);
    expect((await call(t, 'PUT', url, { token: admin, body: { link: 'inbound' } })).statusCode).toBe(204);
    expect((await call(t, 'GET', url, { token: admin })).json()).toMatchObject({
      link: 'inbound',
      linkState: null,
    });
  });

  it('the local node stays inbound; denials and a bad mode are refused before anything changes', async () => {
    const local = await call(t, 'PUT', '/api/nodes/local', { token: admin, body: { link: 'outbound' } });
    expect(local.statusCode).toBe(400);
    expect(errorOf(local)).toMatchObject({ code: 'ErrFieldInvalid', metadata: { field: 'link' } });
    const id = (await create({ name: 'guarded', link: 'outbound', sftpPort: 2204 })).json<View>().id;
    const url = `/api/nodes/${id}`;
    expect((await call(t, 'PUT', url, { body: { link: 'inbound' } })).statusCode).toBe(401);
    expect((await call(t, 'PUT', url, { token: viewer, body: { link: 'inbound' } })).statusCode).toBe(403);
    expect((await create({ name: 'denied', link: 'outbound', sftpPort: 2205 }, viewer)).statusCode).toBe(403);
    const bad = await call(t, 'PUT', url, { token: admin, body: { link: 'sideways' } });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toMatchObject({ code: 'ErrFieldInvalidOption', metadata: { field: 'link' } });
    expect((await call(t, 'GET', url, { token: admin })).json()).toMatchObject({ link: 'outbound' });
  });

  it('the relay follows create, update and delete at once; a port it cannot bind is the state’s error', async () => {
    const relay = t.services.sftpRelay;
    await relay.start();
    const blocker = await listenOnFreePort();
    const busy = (blocker.address() as { port: number }).port;
    try {
      const id = (await create({ name: 'relayed', link: 'outbound', sftpPort: busy })).json<View>().id;
      const url = `/api/nodes/${id}`;
      const blocked = (await call(t, 'GET', url, { token: viewer })).json<View>();
      expect(blocked.linkState?.sftpRelay).toMatchObject({ port: busy, listening: false });
      expect(blocked.linkState?.sftpRelay.error).toMatch(/EADDRINUSE|in use/i);
      const free = await freePort();
      expect((await call(t, 'PUT', url, { token: admin, body: { sftpPort: free } })).statusCode).toBe(204);
      const moved = (await call(t, 'GET', url, { token: viewer })).json<View>();
      expect(moved.linkState?.sftpRelay).toEqual({ port: free, listening: true, error: null });
      expect(relay.address(id)).toEqual({ port: free });
      expect((await call(t, 'DELETE', url, { token: admin })).statusCode).toBe(204);
      expect(relay.address(id)).toBeNull();
    } finally {
      await relay.stop();
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

function listenOnFreePort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: '0.0.0.0', port: 0 }, () => resolve(server));
  });
}

async function freePort(): Promise<number> {
  const server = await listenOnFreePort();
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
