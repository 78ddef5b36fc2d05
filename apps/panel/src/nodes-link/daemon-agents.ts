/**
 * One bounded keep-alive pool per node for the panel's HTTP calls to daemons, so a proxied request reuses a
 * connected (and, for TLS nodes, handshaken) socket instead of opening one per request. A pool belongs to one
 * address and one TLS setting: when an admin changes either, the old pool and its sockets are dropped, so no
 * connection verified under a previous pin is reused (docs/security.md § Node link).
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { NodeAddress } from './daemon-client';
import { tlsOptionsOf } from './node-tls';

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
  return JSON.stringify([node.host, node.port, ...tls]);
}

/** The pools of one panel (its NodeLink): node ids are only unique within one panel's database. */
export class DaemonAgents {
  private readonly pools = new Map<string, Pool>();

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
    // The TLS settings a pool needs for its session cache; each request still passes its own (daemon-client.ts).
    const agent = tls
      ? new HttpsAgent({
          ...options,
          ca: tls.ca,
          rejectUnauthorized: tls.rejectUnauthorized,
          checkServerIdentity: tls.checkServerIdentity,
        })
      : new HttpAgent(options);
    this.pools.set(node.id, { key, agent });
    return agent;
  }

  /** Closes every pooled connection (panel shutdown). */
  close(): void {
    for (const pool of this.pools.values()) pool.agent.destroy();
    this.pools.clear();
  }
}
