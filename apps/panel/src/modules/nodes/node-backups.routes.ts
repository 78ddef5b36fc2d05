/**
 * A node's backup settings for administrators (docs/backups.md § Destinations, § Verification):
 * `GET /api/nodes/{id}/backups` (destination without its secrets, last check and prune, next runs, restic's
 * version), `PUT /api/nodes/{id}/backups/destination` (kept on the node: the panel stores nothing of it) and
 * `POST /api/nodes/{id}/backups/check` (a `restic check` of a data subset now). Each is the node's own admin row,
 * called with a node-admin token; the node's catalogued errors come back unchanged.
 */
import { z } from 'zod';
import {
  DAEMON_TOKEN_ANY_SERVER,
  backupCheckResultSchema,
  backupDestinationInputSchema,
  backupNodeStatusSchema,
  daemonRoutes,
  type BackupCheckResult,
  type BackupNodeStatus,
} from '@hearth/contract';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../app-types';
import type { NodeLink } from '../../nodes-link/node-link';
import { currentUser } from '../../plugins/auth';
import type { NodesService } from './nodes.service';

const tags = ['nodes'];
const idParams = z.strictObject({ id: z.string().min(1).max(64) });
/** Opening a new destination creates its repository; a check reads data back: both may take a while. */
const SLOW = { responseMs: 30 * 60_000 };

const grantOf = (req: FastifyRequest) => ({
  sub: currentUser(req).userId,
  server: DAEMON_TOKEN_ANY_SERVER,
  perms: [],
  admin: true,
});

export function nodeBackupsRoutes(app: App, nodes: NodesService, link: NodeLink): void {
  app.get('/api/nodes/:id/backups', {
    config: { permission: 'admin' },
    schema: { tags, params: idParams, response: { 200: backupNodeStatusSchema } },
    handler: async (req) => {
      await nodes.row(req.params.id);
      const { method, path } = daemonRoutes.backupNodeStatus;
      return link.json<BackupNodeStatus>(req.params.id, grantOf(req), { method, path });
    },
  });

  app.put('/api/nodes/:id/backups/destination', {
    config: { permission: 'admin' },
    schema: { tags, params: idParams, body: backupDestinationInputSchema, response: { 204: z.undefined() } },
    handler: async (req, reply) => {
      await nodes.row(req.params.id);
      const { method, path } = daemonRoutes.backupDestinationWrite;
      await link.json(req.params.id, grantOf(req), { method, path, body: JSON.stringify(req.body) }, SLOW);
      return reply.status(204).send();
    },
  });

  app.post('/api/nodes/:id/backups/check', {
    config: { permission: 'admin' },
    schema: { tags, params: idParams, response: { 200: backupCheckResultSchema } },
    handler: async (req) => {
      await nodes.row(req.params.id);
      const { method, path } = daemonRoutes.backupCheck;
      return link.json<BackupCheckResult>(req.params.id, grantOf(req), { method, path }, SLOW);
    },
  });
}
