/**
 * `/proxy/daemon/server/{id}/backup…` and `/backup-policy` (docs/backups.md, docs/api.md): the contract's
 * permission-table rows forwarded as `backups`. The caller's server flag is checked here (404 without access, 403
 * without the flag) and again by the daemon from the token; a backup id of another form never reaches the
 * daemon's path (404 ErrBackupNotFound). Bodies stream both ways (a download is never held in the panel), and the
 * wait for an answer is long: a backup or restore answers when done, a download is the archive being made.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, backupIdSchema, panelNeedOf, proxiedRows } from '@hearth/contract';
import type { App } from '../../app-types';
import { forwardRequest, streamRequestBodies } from '../../nodes-link/forward';
import type { NodeLink } from '../../nodes-link/node-link';
import { currentServer, currentUser } from '../../plugins/auth';
import { grantFor } from './servers.service';

/** A backup of a large world, or its download over a slow line, may take hours. */
const LONG_RESPONSE_MS = 6 * 60 * 60_000;
const SERVER_PREFIX = '/daemon/server/:id';

/** The daemon path for this call from the row's own path; the backup id is checked so it cannot smuggle a path. */
function suffixOf(req: FastifyRequest, rowPath: string): string {
  const suffix = rowPath.slice(SERVER_PREFIX.length);
  const raw = (req.params as { backupId?: unknown }).backupId;
  if (raw === undefined) return suffix;
  const backupId = backupIdSchema.safeParse(raw);
  if (!backupId.success) throw new AppError('ErrBackupNotFound');
  return suffix.replace(':backupId', backupId.data);
}

function forward(link: NodeLink, req: FastifyRequest, reply: FastifyReply, rowPath: string) {
  const access = currentServer(req);
  const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
  return forwardRequest(link, req, reply, {
    nodeId: access.nodeId,
    grant: grantFor(currentUser(req), access),
    path: `/daemon/server/${access.serverId}${suffixOf(req, rowPath)}${query}`,
    responseMs: LONG_RESPONSE_MS,
  });
}

export async function backupsProxyRoutes(app: App, link: NodeLink): Promise<void> {
  await app.register(async (scope) => {
    streamRequestBodies(scope);
    for (const [, row] of proxiedRows('backups')) {
      const { permission, server } = panelNeedOf(row);
      (scope as App).route({
        method: row.method,
        url: row.proxy.path,
        config: { permission, server },
        schema: { tags: ['proxy'] },
        handler: (req, reply) => forward(link, req, reply, row.path),
      });
    }
  });
}
