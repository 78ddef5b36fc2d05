/**
 * `/proxy/daemon/server/{id}/backup…` and `/backup-policy` (docs/backups.md, docs/api.md): the contract's
 * permission-table rows forwarded as `backups`. The caller's server flag is checked here (404 without access, 403
 * without the flag) and again by the daemon from the token; a backup id of another form never reaches the
 * daemon's path (404 ErrBackupNotFound). Bodies stream both ways (a download is never held in the panel), and the
 * wait for an answer is long: a backup or restore answers when done, a download is the archive being made.
 */
import type { FastifyRequest } from 'fastify';
import { AppError, backupIdSchema } from '@hearth/contract';
import type { App } from '../../app-types';
import type { NodeLink } from '../../nodes-link/node-link';
import { streamedProxyRoutes } from './streamed-proxy';

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

export function backupsProxyRoutes(app: App, link: NodeLink): Promise<void> {
  return streamedProxyRoutes(app, link, 'backups', {
    tail: (req, rowPath) => {
      const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
      return `${suffixOf(req, rowPath)}${query}`;
    },
    responseMs: () => LONG_RESPONSE_MS,
  });
}
