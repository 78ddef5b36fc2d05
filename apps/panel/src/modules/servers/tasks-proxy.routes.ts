/**
 * `/proxy/daemon/server/{id}/tasks…`: the contract's permission-table rows forwarded as
 * `tasks` (docs/permissions.md): editServerData (or admin), checked here like the other proxy routes (404
 * without access, 403 without the flag), then forwarded to the node with a fresh token;
 * the daemon's status and body (e.g. 400 ErrInvalidCron, 404 ErrTaskNotFound) come back unchanged.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, panelNeedOf, proxiedRows, taskIdSchema } from '@hearth/contract';
import type { App } from '../../app-types';
import { currentServer, currentUser } from '../../plugins/auth';
import type { NodeLink } from '../../nodes-link/node-link';
import { grantFor } from './servers.service';

/** The daemon path after `/daemon/server/:id` comes from the row, never from the URL. */
const SERVER_PREFIX = '/daemon/server/:id';

/** The daemon path for this call; a task id is checked so it can never smuggle a path. */
function suffixOf(req: FastifyRequest, url: string): string {
  const raw = (req.params as { taskId?: unknown }).taskId;
  if (raw === undefined) return url;
  const taskId = taskIdSchema.safeParse(raw);
  if (!taskId.success) throw new AppError('ErrTaskNotFound');
  return url.replace(':taskId', taskId.data);
}

async function forward(link: NodeLink, req: FastifyRequest, reply: FastifyReply, url: string) {
  const access = currentServer(req);
  const body = req.method === 'POST' || req.method === 'PUT' ? JSON.stringify(req.body ?? {}) : undefined;
  const res = await link.stream(access.nodeId, grantFor(currentUser(req), access), {
    method: req.method,
    path: `/daemon/server/${access.serverId}${suffixOf(req, url)}`,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body,
  });
  reply.status(res.statusCode ?? 502);
  const type = res.headers['content-type'];
  if (type) reply.header('content-type', type);
  return reply.send(res);
}

export function tasksProxyRoutes(app: App, link: NodeLink): void {
  for (const [, row] of proxiedRows('tasks')) {
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
}
