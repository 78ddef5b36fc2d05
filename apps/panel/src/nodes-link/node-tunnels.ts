/**
 * The outbound node links connected to this panel (docs/adr/0015-outbound-node-link.md): one multiplexed
 * WebSocket per node that dials out (`link: outbound`), through which NodeLink's HTTP calls, proxied sockets
 * and the SFTP relay open their streams. A node with no tunnel is offline at once — nothing waits for it to
 * come back, so a request never hangs on a node behind NAT that is down.
 */
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { AppError } from '@hearth/contract';
import { LinkMux, type LinkMuxOptions, type LinkSocket } from '@hearth/server-kit';

export type TunnelKind = 'http' | 'sftp';

export interface TunnelState {
  connected: boolean;
  /** When the link last connected (while connected) or dropped (while not); null before the first connect. */
  since: number | null;
  remoteAddress: string | null;
  /** Why the last link ended (null until one has). */
  lastError: string | null;
  /** Connections accepted since the panel started. */
  connects: number;
}

interface Entry {
  mux: LinkMux | null;
  name: string;
  state: TunnelState;
}

export type TunnelOptions = Pick<LinkMuxOptions, 'window' | 'highWater' | 'pingMs' | 'maxMissedPongs'>;

export class NodeTunnels extends EventEmitter<{ change: [nodeId: string] }> {
  readonly #entries = new Map<string, Entry>();
  #closed = false;

  constructor(
    private readonly options: TunnelOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    super();
  }

  /**
   * Takes a node's freshly authenticated WebSocket as its tunnel. A newer connection replaces the older one (the
   * node restarted, or its old TCP connection is half dead): the older one is closed and its streams fail.
   */
  attach(nodeId: string, ws: LinkSocket, remoteAddress: string | null, name = nodeId): LinkMux {
    const mux = new LinkMux(ws, { ...this.options, role: 'opener', remoteAddress });
    if (this.#closed) {
      mux.close('the panel is shutting down');
      return mux;
    }
    const entry = this.#entry(nodeId);
    const previous = entry.mux;
    entry.name = name;
    entry.mux = mux;
    entry.state = {
      connected: true,
      since: this.now(),
      remoteAddress,
      lastError: entry.state.lastError,
      connects: entry.state.connects + 1,
    };
    previous?.close('replaced by a newer connection');
    mux.on('close', (err) => {
      if (entry.mux !== mux) return; // replaced: the newer link's state stands
      entry.mux = null;
      entry.state = { ...entry.state, connected: false, since: this.now(), lastError: err.message };
      this.emit('change', nodeId);
    });
    this.emit('change', nodeId);
    return mux;
  }

  /** A new stream to the node's daemon; ErrNodeOffline at once when the node has no link connected. */
  openStream(nodeId: string, kind: TunnelKind): Duplex {
    const entry = this.#entries.get(nodeId);
    if (!entry?.mux || entry.mux.closed)
      throw new AppError('ErrNodeOffline', { node: entry?.name ?? nodeId });
    return entry.mux.open(kind);
  }

  state(nodeId: string): TunnelState {
    return { ...(this.#entries.get(nodeId)?.state ?? emptyState()) };
  }

  /** Closes every link (panel shutdown); later attaches are closed at once. */
  close(): void {
    this.#closed = true;
    for (const entry of this.#entries.values()) entry.mux?.close('the panel is shutting down');
  }

  #entry(nodeId: string): Entry {
    let entry = this.#entries.get(nodeId);
    if (!entry) {
      entry = { mux: null, name: nodeId, state: emptyState() };
      this.#entries.set(nodeId, entry);
    }
    return entry;
  }
}

const emptyState = (): TunnelState => ({
  connected: false,
  since: null,
  remoteAddress: null,
  lastError: null,
  connects: 0,
});
