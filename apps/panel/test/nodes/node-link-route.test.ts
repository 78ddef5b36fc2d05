/**
 * `GET /api/nodes/link` and NodeLink over it, with a real listening panel and a stand-in node speaking the link
 * protocol (server-kit's LinkMux) with an HTTP server behind it: the refusals before the upgrade (no or a wrong
 * node credential, a user's session, a node set to be dialled), the tunnel's state, a newer connection
 * replacing the older, the panel's calls reaching the node only through the tunnel (its address is a closed
 * port), ErrNodeOffline at once without a tunnel and ErrNodeLinkLost when the link drops mid-call.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DAEMON_TOKEN_ANY_SERVER, isAppError } from '@hearth/contract';
import { LinkMux } from '@hearth/server-kit';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const GRANT = { sub: 'panel', server: DAEMON_TOKEN_ANY_SERVER, perms: [], admin: true };

interface Dialled {
  socket: WebSocket;
  mux: LinkMux | null;
  status: number;
  code: string | undefined;
}

/** A port with nothing listening on it (taken, then released). */
async function closedPort(): Promise<number> {
  const probe = createTcpServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

describe('outbound node link endpoint', () => {
  let t: TestApp;
  let url: string;
  let admin: string;
  let nodeId: string;
  let secret: string;
  let inboundId: string;
  let inboundSecret: string;
  let daemon: Server;
  let hang: () => void = () => {};

  /** Dials the link as a node would; answers the panel's streams with `daemon`. */
  const dial = (authorization?: string): Promise<Dialled> =>
    new Promise((resolve, reject) => {
      const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/nodes/link`, {
        headers: authorization ? { authorization } : {},
      });
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          const code = (JSON.parse(body) as { error?: { code?: string } }).error?.code;
          resolve({ socket, mux: null, status: res.statusCode ?? 0, code });
        });
      });
      socket.once('open', () => {
        const mux = new LinkMux(socket, { role: 'acceptor' });
        mux.on('stream', (stream) => daemon.emit('connection', stream));
        resolve({ socket, mux, status: 101, code: undefined });
      });
      socket.once('error', reject);
    });

  const makeNode = async (name: string, link: 'inbound' | 'outbound') => {
    const body = { name, publicHost: 'n.example', publicPort: 1, privateHost: '127.0.0.1', privatePort: 1 };
    const id = (await call(t, 'POST', '/api/nodes', { token: admin, body: { ...body, sftpPort: 2 } })).json<{
      id: string;
    }>().id;
    const rotated = await call(t, 'POST', `/api/nodes/${id}/deployment/rotate`, { token: admin });
    // Straight in the row: this suite is about the link, not the settings' rules; plain HTTP inside the tunnel
    // (the stand-in has no certificate; e2e/link-outbound.test.ts runs a real daemon with its pinned TLS).
    await t.services.nodesRepo.update(id, { link, tls_mode: 'plain', private_port: await closedPort() });
    return { id, secret: rotated.json<{ clientSecret: string }>().clientSecret };
  };

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    admin = (await createUser(t, { admin: true })).token;
    ({ id: nodeId, secret } = await makeNode('behind-nat', 'outbound'));
    ({ id: inboundId, secret: inboundSecret } = await makeNode('dialled', 'inbound'));
    daemon = createServer((req, res) => {
      if (req.url === '/daemon/hang') {
        hang = () => res.destroy();
        return; // answers never: the link is cut under it
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ path: req.url, bearer: Boolean(req.headers.authorization) }));
    });
  });
  afterAll(async () => {
    hang();
    await t?.close();
  });

  it('refuses, before the upgrade, a caller without the node credential, a wrong one or a session', async () => {
    expect(await dial()).toMatchObject({ status: 401, code: 'ErrLoginNotPermitted' });
    expect(await dial(basic(`.node_${nodeId}`, 'wrong'))).toMatchObject({ status: 401 });
    expect(await dial(basic(`.node_${inboundId}`, secret))).toMatchObject({ status: 401 });
    expect(await dial(`Bearer ${admin}`)).toMatchObject({ status: 401, code: 'ErrLoginNotPermitted' });
    expect(t.services.tunnels.state(nodeId).connects).toBe(0);
  });

  it('refuses a node set to be dialled by the panel (ErrNodeLinkMode)', async () => {
    const res = await dial(basic(`.node_${inboundId}`, inboundSecret));
    expect(res).toMatchObject({ status: 409, code: 'ErrNodeLinkMode' });
    expect(t.services.tunnels.state(inboundId).connected).toBe(false);
  });

  it('without a tunnel the node is offline at once', async () => {
    const err = await t.services.link
      .json(nodeId, GRANT, { method: 'GET', path: '/daemon/features' })
      .catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('ErrNodeOffline');
  });

  it('carries the panel calls through the tunnel; a newer connection replaces the older', async () => {
    const first = await dial(basic(`.node_${nodeId}`, secret));
    expect(first.status).toBe(101);
    expect(t.services.tunnels.state(nodeId)).toMatchObject({ connected: true, connects: 1 });
    const answer = await t.services.link.json<{ path: string; bearer: boolean }>(nodeId, GRANT, {
      method: 'GET',
      path: '/daemon/features',
    });
    // The node's own address is a closed port: only the tunnel could have carried this.
    expect(answer).toEqual({ path: '/daemon/features', bearer: true });
    const firstClosed = once(first.socket, 'close');
    const second = await dial(basic(`.node_${nodeId}`, secret));
    expect(second.status).toBe(101);
    await firstClosed;
    expect(t.services.tunnels.state(nodeId)).toMatchObject({ connected: true, connects: 2 });
    const again = await t.services.link.json<{ path: string }>(nodeId, GRANT, { method: 'GET', path: '/x' });
    expect(again.path).toBe('/x');
    second.socket.close();
  });

  it('a call in flight when the link drops fails at once with ErrNodeLinkLost', async () => {
    const node = await dial(basic(`.node_${nodeId}`, secret));
    expect(node.status).toBe(101);
    const pending = t.services.link
      .json(nodeId, GRANT, { method: 'GET', path: '/daemon/hang' }, { responseMs: 600_000 })
      .catch((e: unknown) => e);
    while (t.services.tunnels.state(nodeId).connected && node.mux?.size === 0) {
      await new Promise((done) => setTimeout(done, 20));
    }
    node.socket.terminate();
    const err = await pending;
    expect(isAppError(err) && err.code).toBe('ErrNodeLinkLost');
    await new Promise<void>((done) => {
      const check = () => (t.services.tunnels.state(nodeId).connected ? setTimeout(check, 20) : done());
      check();
    });
    expect(t.services.tunnels.state(nodeId).lastError).toMatch(/closed|failed/);
  });

  // Last: it uses up this address's attempts for the minute.
  it('caps attempts per address (429 ErrRateLimited), before checking any credential', async () => {
    const seen: number[] = [];
    for (let i = 0; i < 125; i += 1) seen.push((await dial(basic(`.node_${nodeId}`, 'wrong'))).status);
    expect(seen.filter((s) => s === 401).length).toBeGreaterThan(0);
    expect(seen.at(-1)).toBe(429);
    // The right secret is refused too now: the cap counts attempts, not only failures.
    expect(await dial(basic(`.node_${nodeId}`, secret))).toMatchObject({
      status: 429,
      code: 'ErrRateLimited',
    });
  });
});
