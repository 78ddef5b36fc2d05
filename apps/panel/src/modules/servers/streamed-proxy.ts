/**
 * The panel's streamed daemon proxies (files, backups, resumable uploads) in one place: every permission-table row
 * of one `forward` kind becomes a route that checks the caller's server flag (the auth plugin, from the row), then
 * forwards the request with the caller's grant to `/daemon/server/{id}…` on the server's node, bodies streaming
 * both ways unparsed (nodes-link/forward.ts). What differs per kind is passed in: the daemon path's tail, the wait
 * for an answer, and protocol headers to pass.
 */
import type { FastifyRequest } from 'fastify';
import { panelNeedOf, proxiedRows, type ProxyForward } from '@hearth/contract';
import type { App } from '../../app-types';
import { forwardRequest, streamRequestBodies } from '../../nodes-link/forward';
import type { NodeLink } from '../../nodes-link/node-link';
import { currentServer, currentUser } from '../../plugins/auth';
import { grantFor } from './servers.service';

export interface StreamedProxyKind {
  /** The daemon path after `/daemon/server/{id}` for this request (`rowPath`: the row's daemon path). */
  tail(req: FastifyRequest, rowPath: string): string;
  /** The wait for the daemon's answer; undefined: the link's default. */
  responseMs(req: FastifyRequest): number | undefined;
  /** Headers of the protocol passed both ways (tus's), besides the ones every forward passes. */
  protocolHeaders?: readonly string[];
}

/** The request's own path after `/proxy/daemon/server/{id}`, query included and still percent-encoded. */
export function urlTail(req: FastifyRequest): string {
  return req.url.replace(/^\/proxy\/daemon\/server\/[^/?]+/, '');
}

export async function streamedProxyRoutes(
  app: App,
  link: NodeLink,
  forward: ProxyForward,
  kind: StreamedProxyKind,
): Promise<void> {
  await app.register(async (scope) => {
    streamRequestBodies(scope);
    for (const [, row] of proxiedRows(forward)) {
      const { permission, server } = panelNeedOf(row);
      (scope as App).route({
        method: row.method,
        url: row.proxy.path,
        config: { permission, server },
        schema: { tags: ['proxy'] },
        handler: (req, reply) => {
          const access = currentServer(req);
          return forwardRequest(link, req, reply, {
            nodeId: access.nodeId,
            grant: grantFor(currentUser(req), access),
            path: `/daemon/server/${access.serverId}${kind.tail(req, row.path)}`,
            responseMs: kind.responseMs(req),
            protocolHeaders: kind.protocolHeaders,
          });
        },
      });
    }
  });
}
