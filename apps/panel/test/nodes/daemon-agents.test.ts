/**
 * The per-node keep-alive pools against a real HTTP server: sequential calls share one connection, a burst
 * never opens more than the pool's bound, and a changed address or TLS setting gets a pool of its own.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DaemonAgents, MAX_SOCKETS_PER_NODE } from '../../src/nodes-link/daemon-agents';
import { callDaemon, readBody, type NodeAddress } from '../../src/nodes-link/daemon-client';

describe('daemon connection pools', () => {
  let server: Server;
  let node: NodeAddress;
  let connections = 0;
  let open = 0;
  let peakOpen = 0;
  const agents = new DaemonAgents();

  beforeAll(async () => {
    server = createServer({ keepAlive: true }, (req, res) => {
      // Answers after a turn of the event loop so a burst really overlaps.
      setImmediate(() => res.end(`ok ${req.url}`));
    });
    server.on('connection', (socket) => {
      connections++;
      open++;
      peakOpen = Math.max(peakOpen, open);
      socket.on('close', () => open--);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    node = { id: 'n1', name: 'local', host: '127.0.0.1', port, tls: { mode: 'plain' } };
  });
  afterAll(async () => {
    agents.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const get = async (path: string, target = node) => {
    const res = await callDaemon(target, { method: 'GET', path, token: 't' }, undefined, agents.for(target));
    return readBody(res);
  };

  it('reuses one connection for calls one after another', async () => {
    const before = connections;
    for (let i = 0; i < 20; i++) expect(await get(`/seq/${i}`)).toBe(`ok /seq/${i}`);
    expect(connections - before).toBe(1);
  });

  it('bounds a burst to the pool size, and every call is answered', async () => {
    const burst = MAX_SOCKETS_PER_NODE * 3;
    const answers = await Promise.all(Array.from({ length: burst }, (_, i) => get(`/burst/${i}`)));
    expect(answers).toEqual(Array.from({ length: burst }, (_, i) => `ok /burst/${i}`));
    expect(peakOpen).toBeLessThanOrEqual(MAX_SOCKETS_PER_NODE);
  });

  it('gives a node whose address changed a new pool and drops the old one', () => {
    const first = agents.for(node);
    expect(agents.for({ ...node })).toBe(first);
    const moved = agents.for({ ...node, host: 'localhost' });
    expect(moved).not.toBe(first);
    expect(agents.for({ ...node, tls: { mode: 'ca' } })).not.toBe(moved);
  });
});
