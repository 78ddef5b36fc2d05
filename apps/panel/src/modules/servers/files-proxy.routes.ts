/**
 * Files through the daemon proxy (SPEC §7 Files): `/proxy/daemon/server/{id}/file/*`, `/archive/*`,
 * `/extract/*`. The caller's server permission is checked here (viewServerFiles to read, putServerFiles to
 * change; admins hold both) and again by the daemon from the token. Bodies stream both ways unparsed
 * (nodes-link/forward.ts), so a 200 MiB upload is never held in the panel's memory; the path is passed on
 * still percent-encoded, exactly as the browser sent it, and the daemon's sandbox judges it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, ServerRequirement } from '../../app-types';
import { forwardRequest, streamRequestBodies } from '../../nodes-link/forward';
import type { NodeLink } from '../../nodes-link/node-link';
import { currentServer, currentUser } from '../../plugins/auth';
import { grantFor } from './servers.service';

interface FileRoute {
  method: 'GET' | 'PUT' | 'DELETE' | 'POST';
  url: string;
  need: ServerRequirement;
}

const FILE_URLS = ['/file', '/file/*'];
const routes: FileRoute[] = [
  ...FILE_URLS.map((url) => ({ method: 'GET' as const, url, need: 'viewServerFiles' as const })),
  ...FILE_URLS.map((url) => ({ method: 'PUT' as const, url, need: 'putServerFiles' as const })),
  ...FILE_URLS.map((url) => ({ method: 'DELETE' as const, url, need: 'putServerFiles' as const })),
  { method: 'POST', url: '/archive/*', need: 'putServerFiles' },
  { method: 'GET', url: '/extract/*', need: 'putServerFiles' },
];

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
    for (const route of routes) {
      (scope as App).route({
        method: route.method,
        url: `/proxy/daemon/server/:id${route.url}`,
        config: { permission: 'authenticated', server: route.need },
        schema: { tags: ['proxy'] },
        handler: (req, reply) => forward(link, req, reply),
      });
    }
  });
}
