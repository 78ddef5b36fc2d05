/**
 * Cached player counts and server states per node (`GET /daemon/players`, node-admin token: one call per node, not
 * per server), for the server list and a server's header (docs/api.md § Servers). Like the node status cache (node-status.ts), reading never waits on the network:
 * a stale or missing entry starts a background refresh and the caller gets what is known now — nothing for a node
 * not asked yet, an older daemon without the route, or a node that is down. Counts are only ever shown, never
 * used for a decision, so a few seconds of staleness is fine.
 */
import {
  DAEMON_TOKEN_ANY_SERVER,
  type NodePlayers,
  type PlayerCount,
  type ServerLive,
} from '@hearth/contract';
import type { NodeLink } from './node-link';

interface Entry {
  servers: Record<string, PlayerCount>;
  /** Absent from daemons older than the field. */
  live: Record<string, ServerLive>;
  at: number;
  refreshing?: Promise<void>;
}

const FRESH_MS = 10_000;
const TIMEOUTS = { connectMs: 1_000, responseMs: 2_000 };
const GRANT = { sub: 'panel', server: DAEMON_TOKEN_ANY_SERVER, perms: [], admin: true };

export class NodePlayersCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly link: NodeLink) {}

  /** The known count of each server (by id), from the cache; stale nodes refresh in the background. */
  counts(servers: ReadonlyArray<{ id: string; nodeId: string }>): Map<string, PlayerCount> {
    const out = new Map<string, PlayerCount>();
    for (const nodeId of new Set(servers.map((s) => s.nodeId))) this.refreshIfStale(nodeId);
    for (const { id, nodeId } of servers) {
      const count = this.entries.get(nodeId)?.servers[id];
      if (count) out.set(id, count);
    }
    return out;
  }

  /** The known state (running, CPU, memory) of each server, from the same cached answer as `counts`. */
  live(servers: ReadonlyArray<{ id: string; nodeId: string }>): Map<string, ServerLive> {
    const out = new Map<string, ServerLive>();
    for (const { id, nodeId } of servers) {
      const state = this.entries.get(nodeId)?.live[id];
      if (state) out.set(id, state);
    }
    return out;
  }

  private refreshIfStale(nodeId: string): void {
    const entry = this.entries.get(nodeId);
    if (entry?.refreshing || (entry && Date.now() - entry.at < FRESH_MS)) return;
    const refreshing = this.link
      .json<NodePlayers>(nodeId, GRANT, { method: 'GET', path: '/daemon/players' }, TIMEOUTS)
      .then(
        (answer) => ({ servers: answer.servers, live: answer.live ?? {}, at: Date.now() }),
        // No answer (node down, an older daemon): no counts until it answers, asked again when stale.
        () => ({ servers: {}, live: {}, at: Date.now() }),
      )
      .then((next) => void this.entries.set(nodeId, next));
    this.entries.set(nodeId, {
      servers: entry?.servers ?? {},
      live: entry?.live ?? {},
      at: entry?.at ?? 0,
      refreshing,
    });
  }
}
