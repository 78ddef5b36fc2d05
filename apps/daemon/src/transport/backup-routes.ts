/**
 * A server's backups and the node's backup settings (docs/backups.md): thin handlers over the backup service.
 * The rows (packages/contract/src/backup-routes.ts) check the token's flags and the request's shape first; the
 * service resolves every backup id among this server's own snapshots. Without a backup service (a bare app
 * built for a test) every route answers ErrBackupUnavailable.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '@hearth/contract';
import type { Backups } from '../backups/setup';
import type { TransportContext } from './context';
import { daemonRoute, type ServerCaller } from './daemon-route';

export function backupRoutes(app: FastifyInstance, ctx: TransportContext, backups: Backups | null): void {
  const { manager } = ctx;
  const ready = () => {
    if (!backups)
      throw new AppError('ErrBackupUnavailable', { reason: 'backups are not set up on this node' });
    return backups;
  };
  const on = (caller: ServerCaller) => ({ server: manager.get(caller.id), service: ready().service });
  const who = (caller: ServerCaller) => ({
    sub: caller.claims.sub,
    admin: caller.claims.admin,
    perms: caller.claims.perms,
  });

  daemonRoute(app, ctx, 'backupList', async (_request, _reply, caller) => {
    const { server, service } = on(caller);
    return service.list(server);
  });

  daemonRoute(app, ctx, 'backupCreate', async (_request, _reply, caller) => {
    const { server, service } = on(caller);
    return service.create(server, { trigger: 'manual', by: caller.claims.sub });
  });

  daemonRoute(app, ctx, 'backupDetails', async (request, _reply, caller) => {
    const { server, service } = on(caller);
    return service.details(server, request.params.backupId);
  });

  daemonRoute(app, ctx, 'backupTree', async (request, _reply, caller) => {
    const { server, service } = on(caller);
    return service.tree(server, request.params.backupId, request.query.path);
  });

  daemonRoute(app, ctx, 'backupRestore', async (request, _reply, caller) => {
    const { server, service } = on(caller);
    return service.restore(server, request.params.backupId, request.body, who(caller));
  });

  daemonRoute(app, ctx, 'backupDownload', async (request, reply, caller) => {
    const { server, service } = on(caller);
    const download = await service.download(server, request.params.backupId, request.query);
    reply.raw.once('close', () => download.abort());
    reply.header('content-type', download.contentType);
    reply.header('content-disposition', `attachment; filename="${download.fileName.replace(/"/g, '')}"`);
    return reply.send(download.body);
  });

  daemonRoute(app, ctx, 'backupLock', async (request, reply, caller) => {
    const { server, service } = on(caller);
    await service.lock(server, request.params.backupId, request.body.locked);
    return reply.status(204).send();
  });

  daemonRoute(app, ctx, 'backupDelete', async (request, reply, caller) => {
    const { server, service } = on(caller);
    await service.delete(server, request.params.backupId);
    return reply.status(204).send();
  });

  daemonRoute(app, ctx, 'backupPolicyRead', async (_request, _reply, caller) => {
    const { server, service } = on(caller);
    return service.policy(server);
  });

  daemonRoute(app, ctx, 'backupPolicyWrite', async (request, reply, caller) => {
    const { server, service } = on(caller);
    await service.setPolicy(server, request.body, who(caller));
    return reply.status(204).send();
  });

  daemonRoute(app, ctx, 'backupNodeStatus', async () => ready().node.status());

  daemonRoute(app, ctx, 'backupDestinationWrite', async (request, reply) => {
    await ready().node.setDestination(request.body);
    return reply.status(204).send();
  });

  daemonRoute(app, ctx, 'backupCheck', async () => ready().node.check());
}
