/**
 * The SFTP relay's byte path (nodes-link/sftp-relay.ts) over real TCP. The node's link is stood in for by a
 * connection to a real TCP server playing the daemon's SFTP listener (the real tunnel and a real OpenSSH
 * client are in e2e/sftp-relay.test.ts): what a user sends reaches it unchanged and its answer comes back;
 * without a link the user's connection is closed at once; stop() ends the relays and their connections.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@hearth/contract';
import { SftpRelay, type SftpTunnels } from '../../src/nodes-link/sftp-relay';

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen({ host: '127.0.0.1', port: 0 }, () => resolve((server.address() as { port: number }).port));
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Connects, sends `text`, and resolves with everything received until the relay or the peer closes. */
function exchange(
  port: number,
  text: string,
  endAfter?: string,
): Promise<{ received: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (endAfter && received.includes(endAfter)) socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ received, socket }));
    socket.write(text);
  });
}

describe('SFTP relay', () => {
  let daemonSide: Server;
  let daemonPort: number;
  const connected = new Set<string>();
  const seenByDaemon: string[] = [];

  const tunnels: SftpTunnels = {
    openStream: (nodeId) => {
      if (!connected.has(nodeId)) throw new AppError('ErrNodeOffline', { node: nodeId });
      return connect({ host: '127.0.0.1', port: daemonPort });
    },
    state: (nodeId) => ({
      connected: connected.has(nodeId),
      since: connected.has(nodeId) ? 1 : null,
      remoteAddress: connected.has(nodeId) ? '192.0.2.7' : null,
      lastError: null,
      connects: connected.has(nodeId) ? 1 : 0,
    }),
  };

  beforeAll(async () => {
    // Plays the daemon's SFTP listener: answers every line with its upper-case form, prefixed by `node:`.
    daemonSide = createServer((socket) => {
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        seenByDaemon.push(chunk);
        socket.write(`node:${chunk.toUpperCase()}`);
      });
    });
    daemonPort = await listen(daemonSide);
  });
  afterAll(() => new Promise((resolve) => daemonSide.close(resolve)));

  it('pipes a connected node both ways; refuses at once without a link; follows the stored nodes', async () => {
    const nodes = [{ id: 'far', sftpPort: await freePort() }];
    const relay = new SftpRelay({ outboundNodes: async () => nodes, tunnels, host: '127.0.0.1' });
    await relay.start();
    try {
      const port = relay.address('far')?.port ?? 0;
      expect(port).toBe(nodes[0]?.sftpPort);
      expect(relay.state('far', port)).toMatchObject({
        connected: false,
        sftpRelay: { port, listening: true, error: null },
      });
      // No link: closed by the relay with nothing sent, and nothing reached the node.
      const refused = await exchange(port, 'SSH-2.0-test\r\n');
      expect(refused.received).toBe('');
      expect(seenByDaemon).toEqual([]);

      connected.add('far');
      const through = await exchange(port, 'SSH-2.0-test\r\n', '\n');
      expect(through.received).toBe('node:SSH-2.0-TEST\r\n');
      expect(seenByDaemon.join('')).toBe('SSH-2.0-test\r\n');
      expect(relay.state('far', port)).toMatchObject({ connected: true, remoteAddress: '192.0.2.7' });

      // The node's port changes: the old listener is gone, the new one relays.
      const moved = await freePort();
      nodes[0] = { id: 'far', sftpPort: moved };
      await relay.apply();
      expect(relay.address('far')).toEqual({ port: moved });
      await expect(exchange(port, 'x')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      expect((await exchange(moved, 'again\n', '\n')).received).toBe('node:AGAIN\n');

      // The node is no longer outbound: no listener for it.
      nodes.length = 0;
      await relay.apply();
      expect(relay.address('far')).toBeNull();
      expect(relay.state('far', moved).sftpRelay).toEqual({ port: moved, listening: false, error: null });
    } finally {
      await relay.stop();
      connected.clear();
    }
  });

  it('stop() closes the listeners and the connections in flight; a relay not started listens nowhere', async () => {
    const nodes = [{ id: 'far', sftpPort: await freePort() }];
    const relay = new SftpRelay({ outboundNodes: async () => nodes, tunnels, host: '127.0.0.1' });
    await relay.apply();
    expect(relay.address('far')).toBeNull();
    await relay.start();
    connected.add('far');
    const socket = connect({ host: '127.0.0.1', port: nodes[0]?.sftpPort ?? 0 });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => {}); // a reset from the relay is one way to be closed
    await new Promise<void>((resolve) => {
      socket.once('data', () => resolve());
      socket.write('hello');
    });
    await relay.stop();
    await closed;
    expect(relay.address('far')).toBeNull();
    connected.clear();
  });
});
