/**
 * Hands each node the alert conditions it evaluates itself (docs/alerts.md § Where conditions are evaluated;
 * wire: packages/contract/src/alert-watches.ts): the enabled rules about thresholds, empty servers and console
 * patterns — the global ones for every node, a server's own for the node that runs it. Nothing is pushed on a
 * timer of its own: every outbox page a node answers (node-events-pull.ts, every few seconds) says which version
 * of the watches it holds, and when that is not the version the rules make now (a rule changed, the daemon
 * restarted and holds none), the watches are pushed with `PUT /daemon/alert-watches`. A failed push is tried
 * again with the next page.
 */
import { createHash } from 'node:crypto';
import {
  DAEMON_TOKEN_ANY_SERVER,
  ALERT_WATCHES_MAX,
  DAEMON_TOKEN_PANEL_SUBJECT,
  watchedConditionTypes,
  type AlertCondition,
  type AlertWatch,
  type AlertWatches,
} from '@hearth/contract';
import type { Db } from '../../db/connect';
import type { NodeLink } from '../../nodes-link/node-link';
import type { AlertRuleWithTarget } from './alerts.repository';

const PANEL_GRANT = {
  sub: DAEMON_TOKEN_PANEL_SUBJECT,
  server: DAEMON_TOKEN_ANY_SERVER,
  perms: [],
  admin: true,
};
const TIMEOUTS = { connectMs: 2_000, responseMs: 10_000 };
/** Which node runs a server is read again after this long (a server moved to another node). */
const PLACES_FRESH_MS = 60_000;
const watched = new Set<string>(watchedConditionTypes);

export interface WatchSyncDeps {
  db: Db;
  link: NodeLink;
  /** The rules as the engine holds them (one read per change of the rules: AlertEngine.rules). */
  rules: () => Promise<AlertRuleWithTarget[]>;
}

interface Built {
  from: Promise<AlertRuleWithTarget[]>;
  at: number;
  /** Each node's watches; a node not named gets the global ones only. */
  nodes: Map<string, AlertWatches>;
  global: AlertWatches;
}

export class AlertWatchSync {
  #built: Built | null = null;
  readonly #pushing = new Set<string>();

  constructor(private readonly deps: WatchSyncDeps) {}

  /** Told the version a node answered in an outbox page (undefined: an older daemon, left alone). */
  async onPage(nodeId: string, held: string | null | undefined): Promise<void> {
    if (held === undefined || this.#pushing.has(nodeId)) return;
    const watches = await this.watchesOf(nodeId);
    if (held === watches.version) return;
    // A node that never had watches and needs none is left alone (most nodes, most of the time).
    if (held === null && watches.all.length === 0 && Object.keys(watches.servers).length === 0) return;
    this.#pushing.add(nodeId);
    try {
      await this.deps.link.json(
        nodeId,
        PANEL_GRANT,
        { method: 'PUT', path: '/daemon/alert-watches', body: JSON.stringify(watches) },
        TIMEOUTS,
      );
    } finally {
      this.#pushing.delete(nodeId);
    }
  }

  /** The watches of one node as the rules stand now. */
  async watchesOf(nodeId: string): Promise<AlertWatches> {
    const built = await this.#build();
    return built.nodes.get(nodeId) ?? built.global;
  }

  async #build(): Promise<Built> {
    const from = this.deps.rules();
    const current = this.#built;
    if (current && current.from === from && Date.now() - current.at < PLACES_FRESH_MS) return current;
    const all: AlertWatch[] = [];
    const byServer = new Map<string, AlertWatch[]>();
    for (const { rule } of await from) {
      if (!rule.enabled) continue;
      const condition = JSON.parse(rule.condition) as AlertCondition;
      if (!watched.has(condition.type)) continue;
      const watch: AlertWatch = { rule: rule.id, condition };
      // Beyond the bound a node accepts, the oldest rules are watched (the list is in creation order).
      if (rule.server_id === null) {
        if (all.length < ALERT_WATCHES_MAX) all.push(watch);
      } else {
        const own = byServer.get(rule.server_id) ?? [];
        if (own.length < ALERT_WATCHES_MAX) own.push(watch);
        byServer.set(rule.server_id, own);
      }
    }
    const places =
      byServer.size === 0
        ? []
        : await this.deps.db.kysely
            .selectFrom('servers')
            .select(['id', 'node_id'])
            .where('id', 'in', [...byServer.keys()])
            .execute();
    const perNode = new Map<string, Record<string, AlertWatch[]>>();
    for (const { id, node_id } of places) {
      const servers = perNode.get(node_id) ?? {};
      servers[id] = byServer.get(id) ?? [];
      perNode.set(node_id, servers);
    }
    const nodes = new Map<string, AlertWatches>();
    for (const [nodeId, servers] of perNode) nodes.set(nodeId, versioned(all, servers));
    const built: Built = { from, at: Date.now(), nodes, global: versioned(all, {}) };
    this.#built = built;
    return built;
  }
}

/** The watches with their version: a hash of their content, so equal watches have equal versions. */
function versioned(all: AlertWatch[], servers: Record<string, AlertWatch[]>): AlertWatches {
  const ordered = Object.fromEntries(Object.entries(servers).sort(([a], [b]) => (a < b ? -1 : 1)));
  const version = createHash('sha256')
    .update(JSON.stringify({ all, servers: ordered }))
    .digest('base64url')
    .slice(0, 32);
  return { version, all, servers: ordered };
}
