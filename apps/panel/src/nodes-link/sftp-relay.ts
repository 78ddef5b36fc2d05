/**
 * The panel's SFTP relay for outbound nodes (docs/operations.md § Remote node, outbound mode). Such a node has no
 * port anyone can reach, so for each one the panel listens on the node's `sftpPort` and pipes every TCP
 * connection into a stream through the node's link; the daemon connects that stream to its own SFTP listener on
 * loopback. The SSH session runs end to end between the user's client and the daemon: the host key, the login
 * check and the server's permissions are the node's, unchanged — the panel only moves bytes.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { NodeLinkState } from '@hearth/contract/nodes';

/** The part of the node tunnels (node-tunnels.ts) the relay uses. */
export interface SftpTunnels {
  /** Throws at once when the node is not connected. */
  openStream(nodeId: string, kind: 'sftp'): Duplex;
  state(nodeId: string): Omit<NodeLinkState, 'sftpRelay'>;
}

export interface SftpRelayDeps {
  /** The outbound nodes as stored now. */
  outboundNodes: () => Promise<Array<{ id: string; sftpPort: number }>>;
  /** Null until the panel has a tunnel registry: every connection is then closed at once. */
  tunnels: SftpTunnels | null;
  /** Where the relays listen (config `link.sftpRelayHost`). */
  host: string;
}

/**
 * A failed listen is tried again this often, and the stored nodes are read again: another panel process on the
 * same database may have changed them (this process's own changes apply at once).
 */
export const RELAY_SWEEP_MS = 30_000;

interface Listener {
  port: number;
  server: Server;
  listening: boolean;
  error: string | null;
  sockets: Set<Socket>;
}

const NOT_CONNECTED = {
  connected: false,
  since: null,
  remoteAddress: null,
  lastError: null,
  connects: 0,
} as const;

export class SftpRelay {
  readonly #listeners = new Map<string, Listener>();
  #running = false;
  #queue: Promise<void> = Promise.resolve();
  #sweep: NodeJS.Timeout | null = null;
  #log: () => FastifyBaseLogger | undefined = () => undefined;

  constructor(private readonly deps: SftpRelayDeps) {}

  /** Listens for every outbound node, and keeps the listeners in step with the stored nodes until stop(). */
  async start(log?: () => FastifyBaseLogger): Promise<void> {
    if (log) this.#log = log;
    this.#running = true;
    this.#sweep ??= setInterval(() => void this.apply(), RELAY_SWEEP_MS).unref();
    await this.apply();
  }

  async stop(): Promise<void> {
    this.#running = false;
    if (this.#sweep) clearInterval(this.#sweep);
    this.#sweep = null;
    await this.#enqueue(async () => {
      await Promise.all([...this.#listeners.keys()].map((id) => this.#close(id)));
    });
  }

  /** Re-reads the outbound nodes: opens, moves and closes listeners to match. Never throws (errors are kept). */
  apply(): Promise<void> {
    return this.#enqueue(async () => {
      if (!this.#running) return;
      const wanted = new Map((await this.deps.outboundNodes()).map((n) => [n.id, n.sftpPort]));
      for (const [id, listener] of this.#listeners) {
        if (wanted.get(id) !== listener.port || !listener.listening) await this.#close(id);
      }
      for (const [id, port] of wanted) {
        if (!this.#listeners.has(id)) await this.#open(id, port);
      }
    });
  }

  /** The node's link state with its relay's: `sftpPort` is the stored port (the relay may not listen yet). */
  state(nodeId: string, sftpPort: number): NodeLinkState {
    const link = this.deps.tunnels?.state(nodeId) ?? NOT_CONNECTED;
    const listener = this.#listeners.get(nodeId);
    const sftpRelay =
      listener && listener.port === sftpPort
        ? { port: sftpPort, listening: listener.listening, error: listener.error }
        : { port: sftpPort, listening: false, error: null };
    return { ...link, sftpRelay };
  }

  /** Where the relay for a node listens (tests bind port numbers the system picks). */
  address(nodeId: string): { port: number } | null {
    const info = this.#listeners.get(nodeId)?.server.address();
    return info && typeof info === 'object' ? { port: info.port } : null;
  }

  #enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.#queue.then(work).catch((err: unknown) => {
      this.#log()?.warn({ err }, 'SFTP relay not applied');
    });
    this.#queue = next;
    return next;
  }

  async #open(nodeId: string, port: number): Promise<void> {
    const listener: Listener = {
      port,
      server: createServer(),
      listening: false,
      error: null,
      sockets: new Set(),
    };
    this.#listeners.set(nodeId, listener);
    listener.server.on('connection', (socket) => this.#relay(nodeId, listener, socket));
    await new Promise<void>((resolve) => {
      listener.server.once('listening', () => {
        listener.listening = true;
        resolve();
      });
      listener.server.once('error', (err) => {
        listener.error = err.message;
        this.#log()?.warn({ err, nodeId, port }, 'SFTP relay cannot listen');
        resolve();
      });
      listener.server.listen({ host: this.deps.host, port });
    });
  }

  /** One user's connection: through the node's link, or closed at once when the node is not connected. */
  #relay(nodeId: string, listener: Listener, socket: Socket): void {
    let stream: Duplex;
    try {
      if (!this.deps.tunnels) throw new Error('no node link');
      stream = this.deps.tunnels.openStream(nodeId, 'sftp');
    } catch {
      socket.destroy(); // the client sees the connection closed: the node is not there to answer
      return;
    }
    listener.sockets.add(socket);
    const end = () => {
      listener.sockets.delete(socket);
      socket.destroy();
      stream.destroy();
    };
    socket.on('error', end).on('close', end);
    stream.on('error', end).on('close', end);
    socket.pipe(stream).pipe(socket);
  }

  async #close(nodeId: string): Promise<void> {
    const listener = this.#listeners.get(nodeId);
    if (!listener) return;
    this.#listeners.delete(nodeId);
    for (const socket of listener.sockets) socket.destroy();
    if (!listener.listening) return;
    await new Promise<void>((resolve) => listener.server.close(() => resolve()));
  }
}
