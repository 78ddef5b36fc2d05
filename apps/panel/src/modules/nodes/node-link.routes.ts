/**
 * `GET /api/nodes/link` (websocket) — a node whose link is `outbound` dials the panel here and keeps the
 * connection open; the panel then sends every call to that node through it (nodes-link/node-tunnels.ts,
 * docs/adr/0015-outbound-node-link.md). Called by daemons only, with the node credential (node-credential.ts),
 * which authenticates the NODE and nothing else: no user identity comes from it, and every call the panel
 * makes through the tunnel still carries its own panel-signed token that the daemon verifies.
 * Refused before the upgrade: 401 ErrLoginNotPermitted (credential), 409 ErrNodeLinkMode (the node is set to
 * be dialled by the panel), 429 ErrRateLimited (attempts per address).
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '@hearth/contract';
import type { App } from '../../app-types';
import { RateLimiter, type Limit } from '../../lib/rate-limiter';
import type { NodeTunnels } from '../../nodes-link/node-tunnels';
import type { NodesRepository } from './nodes.repository';
import { authenticateNode } from './node-credential';

export interface NodeLinkRouteDeps {
  nodesRepo: NodesRepository;
  tunnels: NodeTunnels;
}

/**
 * Attempts per address and minute: far above what a reconnecting node needs (its backoff starts at a second),
 * low enough that a flood of upgrades cannot keep the panel hashing secrets.
 */
const attemptsPerIp: Limit = { max: 120, windowMs: 60_000 };

/** The node's `link` setting; read defensively, a row from before the setting existed dials nothing. */
export function linkModeOf(row: object): 'inbound' | 'outbound' {
  return (row as { link?: unknown }).link === 'outbound' ? 'outbound' : 'inbound';
}

const linkedNode = new WeakMap<FastifyRequest, { id: string; name: string }>();

export function nodeLinkRoutes(app: App, deps: NodeLinkRouteDeps): void {
  const limiter = new RateLimiter();
  app.get(
    '/api/nodes/link',
    {
      websocket: true,
      // Only the upgrade means anything here; a plain GET or HEAD would answer 404 after the credential check.
      exposeHeadRoute: false,
      config: { permission: 'node' },
      schema: { tags: ['nodes'] },
      // Before the upgrade, so a refused node gets the catalogued error as JSON with its status.
      preValidation: async (req) => {
        limiter.hit(`node-link:ip:${req.ip}`, attemptsPerIp);
        const nodeId = await authenticateNode(deps.nodesRepo, req.headers.authorization);
        const row = await deps.nodesRepo.findById(nodeId);
        if (!row) throw new AppError('ErrLoginNotPermitted', { reason: 'node credential' }, { status: 401 });
        const link = linkModeOf(row);
        if (link !== 'outbound') throw new AppError('ErrNodeLinkMode', { node: row.name, link });
        linkedNode.set(req, { id: row.id, name: row.name });
      },
    },
    (socket, req) => {
      const node = linkedNode.get(req);
      if (!node) return socket.close(1011, 'not authenticated');
      req.log.info({ nodeId: node.id, remoteAddress: req.ip }, 'node link connected');
      const mux = deps.tunnels.attach(node.id, socket, req.ip, node.name);
      mux.once('close', (err) => req.log.info({ nodeId: node.id, reason: err.message }, 'node link closed'));
    },
  );
}
