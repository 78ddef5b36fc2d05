/**
 * Files through the daemon proxy: `/proxy/daemon/server/{id}/file/*`, `/archive/*`,
 * `/extract/*` — the contract's permission-table rows forwarded as `files` (docs/permissions.md). The caller's
 * server permission is checked here (viewServerFiles to read, putServerFiles to change; admins hold both)
 * and again by the daemon from the token. Bodies stream both ways unparsed
 * (nodes-link/forward.ts), so a 200 MiB upload is never held in the panel's memory; the path is passed on
 * still percent-encoded, exactly as the browser sent it, and the daemon's sandbox judges it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { panelNeedOf, proxiedRows } from '@hearth/contract';
import type { App } from '../../app-types';
import { forwardRequest, streamRequestBodies } from '../../nodes-link/forward';
import type { NodeLink } from '../../nodes-link/node-link';
import { currentServer, currentUser } from '../../plugins/auth';
import { grantFor } from './servers.service';

/** Uploads, archives and extractions answer only when done: the response wait is the transfer's length. */
const LONG_RESPONSE_MS = 60 * 60_000;

function forward(link: NodeLink, req: FastifyRequest, reply: FastifyReply) {
  const access = currentServer(req);
  const rest = req.url.replace(/^\/proxy\/daemon\/server\/[^/?]+/, '');
  return forwardRequest(link, req, reply, {
    nodeId: access.nodeId,
    grant: grantFor(currentUser(req), access),
    path: `/daemon/server/${access.serverId}${rest}`,
    responseMs: req.method === 'DELETE' ? undefined : LONG_RESPONSE_MS,
  });
}

export async function filesProxyRoutes(app: App, link: NodeLink): Promise<void> {
  await app.register(async (scope) => {
    streamRequestBodies(scope);
    for (const [, row] of proxiedRows('files')) {
      const { permission, server } = panelNeedOf(row);
      (scope as App).route({
        method: row.method,
        url: row.proxy.path,
        config: { permission, server },
        schema: { tags: ['proxy'] },
        handler: (req, reply) => forward(link, req, reply),
      });
    }
  });
}
