/**
 * `POST /api/servers/{id}/transfer` `{node}` → 202 with the transfer's state, and `GET` of the current or last
 * one (administrators only; docs/api.md § Moving a server). While a server moves, every proxied call that is
 * not a read (power, console, file writes, uploads, backups) and its deletion are refused with
 * ErrTransferInProgress; the socket's messages that change the server too (socket-proxy.ts asks `moving`).
 */
import { z } from 'zod';
import type { FastifyRequest, RouteOptions } from 'fastify';
import { AppError, serverTransferBodySchema, transferStateSchema } from '@hearth/contract';
import type { App } from '../../../app-types';
import { currentServer, currentUser } from '../../../plugins/auth';
import type { Services } from '../../../services';
import { TransferRegistry } from './transfer-registry';
import { TransferService } from './transfer.service';

const params = z.strictObject({ id: z.string().min(1).max(64) });
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a route changes a server the guard must hold still during a move. */
function guarded(url: string, method: string): boolean {
  if (READS.has(method)) return false;
  if (url.startsWith('/proxy/daemon/server/')) return true;
  return url === '/api/servers/:id' && method === 'DELETE';
}

/** Adds the guard to every such route registered after this call (so call it before them). */
function registerGuard(app: App, transfers: TransferService): void {
  const guard = async (req: FastifyRequest) => {
    const serverId = req.serverAccess?.serverId;
    if (serverId && transfers.moving(serverId)) throw new AppError('ErrTransferInProgress');
  };
  app.addHook('onRoute', (options: RouteOptions) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    if (!methods.some((m) => guarded(options.url, m))) return;
    const before = options.preHandler;
    options.preHandler = [guard, ...(before === undefined ? [] : Array.isArray(before) ? before : [before])];
  });
}

export function transferRoutes(app: App, services: Services): TransferService {
  const transfers = new TransferService({
    link: services.link,
    servers: services.serversRepo,
    sockets: services.sockets,
    activity: services.activity,
    registry: new TransferRegistry(),
    log: () => app.log,
  });
  registerGuard(app, transfers);
  app.addHook('onClose', () => transfers.close());
  app.post('/api/servers/:id/transfer', {
    config: { permission: 'admin', server: 'view' },
    schema: {
      tags: ['servers'],
      params,
      body: serverTransferBodySchema,
      response: { 202: transferStateSchema },
    },
    handler: async (req, reply) => {
      const state = await transfers.start(currentUser(req), currentServer(req), req.body);
      return reply.status(202).send(state);
    },
  });
  app.get('/api/servers/:id/transfer', {
    config: { permission: 'admin', server: 'view' },
    schema: { tags: ['servers'], params, response: { 200: transferStateSchema } },
    handler: (req) => transfers.current(currentServer(req).serverId),
  });
  return transfers;
}
