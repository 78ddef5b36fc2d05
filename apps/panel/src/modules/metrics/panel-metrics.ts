/**
 * The panel's Prometheus metrics (docs/configuration.md § Metrics; names used by docs/grafana/hearth.json):
 * HTTP requests by method, route pattern (never the raw URL: ids would make a series per server) and status,
 * their latency, the database pool, the proxied sockets open, and each node's link state from the cached probe
 * (a scrape never waits on a node). Process metrics come from prom-client's default collectors.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../../db/connect';
import type { NodeStatusCache } from '../../nodes-link/node-status';
import type { NodesRepository } from '../nodes/nodes.repository';
import type { SocketRegistry } from '../servers/socket-registry';

export interface PanelMetricsSources {
  db: Db;
  sockets: SocketRegistry;
  nodesRepo: NodesRepository;
  nodeStatus: NodeStatusCache;
}

const NODE_STATES = ['online', 'offline', 'unknown'] as const;

export class PanelMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route'>;

  constructor(sources: PanelMetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'hearth_panel_' });
    this.requests = new Counter({
      name: 'hearth_panel_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'hearth_panel_http_request_duration_seconds',
      help: 'Time from request to answer, by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    new Gauge({
      name: 'hearth_panel_db_pool_connections',
      help: 'Database pool connections by state (total, idle, waiting requests); SQLite has one handle.',
      labelNames: ['state', 'dialect'],
      registers,
      collect() {
        const { db } = sources;
        const counts = db.pool?.() ?? { total: 1, idle: 0, waiting: 0 };
        for (const state of ['total', 'idle', 'waiting'] as const) {
          this.set({ state, dialect: db.dialect }, counts[state]);
        }
      },
    });
    new Gauge({
      name: 'hearth_panel_proxied_sockets',
      help: 'Browser websockets the panel relays to daemons right now.',
      registers,
      collect() {
        this.set(sources.sockets.total());
      },
    });
    new Gauge({
      name: 'hearth_panel_node_status',
      help: 'Each node’s link as last probed: 1 for its state (online, offline, unknown), 0 for the others.',
      labelNames: ['node', 'name', 'state'],
      registers,
      async collect() {
        this.reset();
        // A database outage must not cost the whole scrape (its pool and HTTP series say what is wrong).
        const nodes = await sources.nodesRepo.list().catch(() => []);
        const statuses = await sources.nodeStatus.statuses(nodes.map((n) => n.id));
        for (const node of nodes) {
          const current = statuses.get(node.id) ?? 'unknown';
          for (const state of NODE_STATES) {
            this.set({ node: node.id, name: node.name, state }, state === current ? 1 : 0);
          }
        }
      },
    });
  }

  /** One answered request; `route` is the matched pattern (`/api/servers/:id`), or `unmatched`. */
  observe(method: string, route: string | undefined, status: number, seconds: number): void {
    const pattern = route ?? 'unmatched';
    this.requests.inc({ method, route: pattern, status: String(status) });
    this.latency.observe({ method, route: pattern }, seconds);
  }
}
