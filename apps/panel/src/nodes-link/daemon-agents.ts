/**
 * One bounded keep-alive pool per node for the panel's HTTP calls to daemons, so a proxied request reuses a
 * connected (and, for TLS nodes, handshaken) socket instead of opening one per request. A pool belongs to one
 * address and one TLS setting: when an admin changes either, the old pool and its sockets are dropped, so no
 * connection verified under a previous pin is reused (docs/security.md § Node link).
 */
import { Agent as HttpAgent, type AgentOptions, type ClientRequestArgs } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import type { NodeAddress } from './daemon-client';
import type { NodeTunnels } from './node-tunnels';
import { tlsOptionsOf } from './node-tls';

type Created = (err: Error | null, stream?: Duplex) => void;
type OpenStream = () => Duplex;

/**
 * A pool whose connections are streams of the node's outbound tunnel instead of TCP connections: the daemon's
 * HTTP (and its TLS, for TLS modes) runs inside them unchanged. No tunnel → the callback gets ErrNodeOffline,
 * which the request reports as is (daemon-client.ts linkError).
 */
class TunnelHttpAgent extends HttpAgent {
  constructor(
    options: AgentOptions,
    private readonly openStream: OpenStream,
  ) {
    super(options);
  }

  override createConnection(_options: ClientRequestArgs, created: Created): Duplex {
    try {
      return this.openStream();
    } catch (err) {
      created(err as Error);
      return undefined as unknown as Duplex; // Node's Agent takes no return after the callback's error
    }
  }
}

/**
 * The TLS variant: the tunnel authenticates the node to the panel; the inner TLS, with the node's pin or CA
 * check exactly as over TCP, still proves that the far end is the daemon (docs/security.md § Node link).
 */
class TunnelHttpsAgent extends HttpsAgent {
  constructor(
    options: ConstructorParameters<typeof HttpsAgent>[0],
    private readonly openStream: OpenStream,
  ) {
    super(options);
  }

  override createConnection(options: ClientRequestArgs, created: Created): Duplex {
    let socket: Duplex;
    try {
      socket = this.openStream();
    } catch (err) {
      created(err as Error);
      return undefined as unknown as Duplex;
    }
    // `path` is the request's path here; tls.connect would take it for a socket file.
    const { path: _path, ...tls } = options as ConnectionOptions & { path?: string };
    return tlsConnect({ ...tls, socket });
  }
}

/** Concurrent connections to one daemon; more requests queue in the pool. */
export const MAX_SOCKETS_PER_NODE = 64;
/**
 * Idle connections kept per daemon: as many as may be busy, so a burst's sockets are all reused by the next
 * (with fewer, every request above the idle limit closed its socket and the next one reconnected: `connect`
 * showed in the proxy's CPU profile, docs/performance.md). The daemon closes idle ones after its keep-alive.
 */
const MAX_FREE_SOCKETS_PER_NODE = MAX_SOCKETS_PER_NODE;

interface Pool {
  key: string;
  agent: HttpAgent;
}

function poolKey(node: NodeAddress): string {
  const tls = node.tls.mode === 'pinned' ? [node.tls.mode, node.tls.fingerprint] : [node.tls.mode];
  return JSON.stringify([node.link ?? 'inbound', node.host, node.port, ...tls]);
}

/** The pools of one panel (its NodeLink): node ids are only unique within one panel's database. */
export class DaemonAgents {
  private readonly pools = new Map<string, Pool>();

  /** The panel's outbound tunnels; without them (tests, tools) every node is dialled. */
  constructor(private readonly tunnels?: NodeTunnels) {}

  /** The pool for calls to this node (created on first use). */
  for(node: NodeAddress): HttpAgent {
    const key = poolKey(node);
    const existing = this.pools.get(node.id);
    if (existing?.key === key) return existing.agent;
    existing?.agent.destroy();
    const options = {
      keepAlive: true,
      maxSockets: MAX_SOCKETS_PER_NODE,
      maxFreeSockets: MAX_FREE_SOCKETS_PER_NODE,
      scheduling: 'lifo' as const, // the most recently used socket is the least likely closed by the daemon
    };
    const tls = tlsOptionsOf(node.tls);
    const tunnels = node.link === 'outbound' ? this.tunnels : undefined;
    const open = tunnels ? () => tunnels.openStream(node.id, 'http') : null;
    // The TLS settings a pool needs for its session cache; each request still passes its own (daemon-client.ts).
    const httpsOptions = tls && {
      ...options,
      ca: tls.ca,
      rejectUnauthorized: tls.rejectUnauthorized,
      checkServerIdentity: tls.checkServerIdentity,
    };
    let agent: HttpAgent;
    if (open)
      agent = httpsOptions ? new TunnelHttpsAgent(httpsOptions, open) : new TunnelHttpAgent(options, open);
    else agent = httpsOptions ? new HttpsAgent(httpsOptions) : new HttpAgent(options);
    this.pools.set(node.id, { key, agent });
    return agent;
  }

  /** Closes every pooled connection (panel shutdown). */
  close(): void {
    for (const pool of this.pools.values()) pool.agent.destroy();
    this.pools.clear();
  }
}
