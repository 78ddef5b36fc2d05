/** A real WebSocket pair on loopback with a LinkMux on each end: the panel opens, the node accepts. */
import type { AddressInfo } from 'node:net';
import type { Duplex, Readable } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { LinkMux, type LinkMuxOptions } from '../../src/link-mux';

export interface Pair {
  panel: LinkMux;
  node: LinkMux;
  /** The node's end of the WebSocket (tests cut or stall it). */
  nodeSocket: WebSocket;
  close(): Promise<void>;
}

export async function linkPair(
  options: Omit<LinkMuxOptions, 'role'> = {},
  nodeOptions: Omit<LinkMuxOptions, 'role'> = options,
): Promise<Pair> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const port = (wss.address() as AddressInfo).port;
  const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const nodeSocket = new WebSocket(`ws://127.0.0.1:${port}/`, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    nodeSocket.once('open', resolve);
    nodeSocket.once('error', reject);
  });
  const panelSocket = await accepted;
  const panel = new LinkMux(panelSocket, { ...options, role: 'opener', remoteAddress: '127.0.0.1' });
  const node = new LinkMux(nodeSocket, { ...nodeOptions, role: 'acceptor' });
  return {
    panel,
    node,
    nodeSocket,
    close: async () => {
      panel.close('test over');
      nodeSocket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** Everything a readable gives until it ends (by events: `for await` would destroy a duplex's write side). */
export function readAll(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}

/** The error a stream is destroyed with. */
export function errorOf(stream: Duplex): Promise<NodeJS.ErrnoException> {
  return new Promise((resolve) => stream.once('error', resolve));
}

/** Polls `check` until it is true (no timed assertion: the test's own timeout bounds it). */
export async function until(check: () => boolean, everyMs = 20): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, everyMs));
}
