/**
 * `POST /api/servers/{id}/backup/{backupId}/clone` (administrators; docs/backups.md § Clone): a backup restored
 * into a NEW server of the same node. The snapshot is resolved first (another server's id or an unknown one is
 * 404 before anything is created); the new server is made by the panel's own server creation
 * (`ServersService.create`: panel row, owner permission, daemon definition) from the source server's definition —
 * template, variables, environment — under the name the administrator gives; then the daemon restores the
 * snapshot `intoServer` it. If that restore fails, the new server is deleted the same way a user deletes one,
 * so the panel database and the node never keep a half-made clone.
 */
import { z } from 'zod';
import {
  AppError,
  backupIdSchema,
  type BackupCloneBody,
  type BackupCloned,
  type BackupRestored,
  type ServerDefinitionView,
} from '@hearth/contract';
import { backupCloneBodySchema, backupClonedSchema } from '@hearth/contract/backups';
import { createServerBodySchema } from '@hearth/contract/servers';
import type { App, Identity, ServerAccess } from '../../app-types';
import type { NodeLink } from '../../nodes-link/node-link';
import { currentServer, currentUser } from '../../plugins/auth';
import { grantFor, type ServersService } from './servers.service';

/** As a restore through the proxy: a large world may take hours (backups-proxy.routes.ts). */
const LONG_RESPONSE_MS = 6 * 60 * 60_000;

export async function cloneFromBackup(
  servers: ServersService,
  link: NodeLink,
  identity: Identity,
  source: ServerAccess,
  rawBackupId: string,
  body: BackupCloneBody,
): Promise<BackupCloned> {
  const backupId = backupIdSchema.safeParse(rawBackupId);
  if (!backupId.success) throw new AppError('ErrBackupNotFound');
  const grant = grantFor(identity, source);
  const base = `/daemon/server/${source.serverId}`;
  // The snapshot must be the source server's own before a server is made for it.
  await link.json(source.nodeId, grant, { method: 'GET', path: `${base}/backup/${backupId.data}` });
  const {
    id: _id,
    template: _template,
    ...definition
  } = await link.json<ServerDefinitionView>(source.nodeId, grant, {
    method: 'GET',
    path: base,
  });
  const create = createServerBodySchema.parse({
    ...definition,
    name: body.name,
    node: source.nodeId,
    users: [],
  });
  const { id } = await servers.create(identity, create);
  try {
    const restored = await link.json<BackupRestored>(
      source.nodeId,
      grant,
      {
        method: 'POST',
        path: `${base}/backup/${backupId.data}/restore`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ intoServer: id, ...(body.paths ? { paths: body.paths } : {}) }),
      },
      { responseMs: LONG_RESPONSE_MS },
    );
    return { server: id, operation: restored.operation };
  } catch (err) {
    await servers.delete(identity, { serverId: id, nodeId: source.nodeId, perms: source.perms });
    throw err;
  }
}

export function backupCloneRoutes(app: App, servers: ServersService, link: NodeLink): void {
  app.post('/api/servers/:id/backup/:backupId/clone', {
    config: { permission: 'admin', server: 'view' },
    schema: {
      tags: ['servers'],
      params: z.strictObject({ id: z.string().min(1).max(64), backupId: z.string().min(1).max(64) }),
      body: backupCloneBodySchema,
      response: { 200: backupClonedSchema },
    },
    handler: (req) =>
      cloneFromBackup(servers, link, currentUser(req), currentServer(req), req.params.backupId, req.body),
  });
}
