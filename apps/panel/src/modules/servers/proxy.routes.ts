/**
 * `/proxy/daemon/server/{id}/…`: the routes are the contract's permission-table rows
 * forwarded `plain` (docs/permissions.md). The caller's server permission is checked here (404 without
 * access, 403 without the flag), then the call goes to the node with a fresh token naming the caller's
 * flags; the daemon's status, type and body come back unchanged (its errors are catalogued too).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { panelNeedOf, proxiedRows, type DaemonRouteRow } from '@hearth/contract';
import type { App } from '../../app-types';
import { currentServer, currentUser } from '../../plugins/auth';
import type { NodeLink } from '../../nodes-link/node-link';
import { forwardRequest, streamRequestBodies } from '../../nodes-link/forward';
import { grantFor } from './servers.service';

/** A `?wait=true` power action may take as long as a stop does; other calls keep the short timeout. */
const WAIT_RESPONSE_MS = 120_000;

function forward(link: NodeLink, req: FastifyRequest, reply: FastifyReply, suffix: string) {
  const access = currentServer(req);
  const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
  return forwardRequest(link, req, reply, {
    nodeId: access.nodeId,
    grant: grantFor(currentUser(req), access),
    path: `/daemon/server/${access.serverId}${suffix}${query}`,
    responseMs: /[?&]wait=(true|1)\b/.test(query) ? WAIT_RESPONSE_MS : undefined,
  });
}

/** Registered in their own scope: bodies stream to the daemon unparsed (JSON routes elsewhere keep theirs). */
export async function proxyRoutes(app: App, link: NodeLink): Promise<void> {
  await app.register(async (scope) => {
    streamRequestBodies(scope);
    for (const [, row] of proxiedRows('plain')) register(scope, link, row);
  });
}

/** The daemon path after `/daemon/server/:id` (the row's own path: the daemon path never comes from the URL). */
const SERVER_PREFIX = '/daemon/server/:id';

function register(app: App, link: NodeLink, row: DaemonRouteRow & { proxy: { path: string } }): void {
  // Reload is admin-only and the whole definition needs the panel flag editServerAdmin (`servers.edit.admin`,
  // v2 §7), whose token the daemon honours: both stated in their rows.
  const { permission, server } = panelNeedOf(row);
  const suffix = row.path.slice(SERVER_PREFIX.length);
  app.route({
    method: row.method,
    url: row.proxy.path,
    config: { permission, server },
    schema: { tags: ['proxy'] },
    handler: (req, reply) => forward(link, req, reply, suffix),
  });
}
