/**
 * The node link's timeouts against a real local HTTP server: a slow answer on a pooled keep-alive socket is not
 * mistaken for an unreachable node (the connect timer once outlived a reused socket), and a closed port still
 * gives ErrNodeOffline.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@hearth/contract';
import { callDaemon, readBody, type NodeAddress } from '../../src/nodes-link/daemon-client';

const SLOW_MS = 4_000; // longer than the default 3 s connect timeout

describe('daemon client', () => {
  let server: Server;
  let node: NodeAddress;
  const connections: unknown[] = [];

  beforeAll(async () => {
    server = createServer({ keepAlive: true }, (req, res) => {
      const delay = req.url === '/slow' ? SLOW_MS : 0;
      setTimeout(() => res.end(`ok ${req.url}`), delay);
    });
    server.on('connection', (socket) => connections.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    node = { id: 'n1', name: 'local', host: '127.0.0.1', port, tls: { mode: 'plain' } };
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('lets a slow answer on a reused keep-alive socket finish', { timeout: 15_000 }, async () => {
    const first = await callDaemon(node, { method: 'GET', path: '/fast', token: 't' });
    expect(await readBody(first)).toBe('ok /fast');
    const second = await callDaemon(node, { method: 'GET', path: '/slow', token: 't' });
    expect(await readBody(second)).toBe('ok /slow');
    // Both calls went over the same pooled socket: the second never saw a `connect`.
    expect(connections).toHaveLength(1);
  });

  it('reports a port nobody listens on as ErrNodeOffline', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const call = callDaemon({ ...node, port }, { method: 'GET', path: '/', token: 't' });
    const err: unknown = await call.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('ErrNodeOffline');
  });
});
