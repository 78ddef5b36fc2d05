/**
 * `/proxy/daemon/server/{id}/…` (SPEC §7 Daemon proxy): the caller's server permission is checked here
 * (404 without access, 403 without the flag), then the call goes to the node with a fresh token naming the
 * caller's flags; the daemon's status, type and body come back unchanged (its errors are catalogued too).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, ServerRequirement } from '../../app-types';
import { currentServer, currentUser } from '../../plugins/auth';
import type { NodeLink } from '../../nodes-link/node-link';
import { forwardRequest, streamRequestBodies } from '../../nodes-link/forward';
import { grantFor } from './servers.service';

interface ProxyRoute {
  method: 'GET' | 'POST';
  suffix: string;
  need: ServerRequirement;
}

const routes: ProxyRoute[] = [
  // The whole definition: any access plus the panel flag editServerAdmin (see `register`).
  { method: 'GET', suffix: '', need: 'view' },
  { method: 'POST', suffix: '', need: 'view' },
  { method: 'GET', suffix: '/data', need: 'editServerData' },
  { method: 'POST', suffix: '/data', need: 'editServerData' },
  { method: 'GET', suffix: '/status', need: 'view' },
  { method: 'GET', suffix: '/stats', need: 'viewServerStats' },
  { method: 'GET', suffix: '/console', need: 'viewServerConsole' },
  { method: 'POST', suffix: '/console', need: 'sendServerConsole' },
  { method: 'POST', suffix: '/start', need: 'startServer' },
  { method: 'POST', suffix: '/stop', need: 'stopServer' },
  { method: 'POST', suffix: '/kill', need: 'stopServer' },
  { method: 'POST', suffix: '/install', need: 'installServer' },
  { method: 'POST', suffix: '/reload', need: 'view' },
];

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
    for (const route of routes) register(scope, link, route);
  });
}

function register(app: App, link: NodeLink, route: ProxyRoute): void {
  // Reload is a node-admin call: only admins (the daemon refuses others' tokens for it as well). The whole
  // definition is `servers.edit.admin` (v2 §7): the panel flag editServerAdmin, whose token the daemon honours.
  const permission =
    route.suffix === '/reload' ? 'admin' : route.suffix === '' ? 'editServerAdmin' : 'authenticated';
  app.route({
    method: route.method,
    url: `/proxy/daemon/server/:id${route.suffix}`,
    config: { permission, server: route.need },
    schema: { tags: ['proxy'] },
    handler: (req, reply) => forward(link, req, reply, route.suffix),
  });
}
