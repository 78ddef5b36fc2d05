import { z } from 'zod';
import { AppError } from '@hearth/contract';
import {
  oauthClientBodySchema,
  oauthClientCreatedSchema,
  oauthClientViewSchema,
} from '@hearth/contract/accounts';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../app-types';
import { currentServer, currentUser } from '../../plugins/auth';
import type { ClientsService } from './clients.service';
import { clientView } from './client-view';

const tags = ['servers'];
const id = z.string().min(1).max(64);

/**
 * The caller and the server, for managing that server's clients. Any access to the server suffices (the
 * card is always shown; a client gets at most its owner's rights there). A server client's own token may
 * not mint more clients: that would let a leaked token outlive the client's deletion.
 */
function callerOn(req: FastifyRequest): { userId: string; serverId: string } {
  const identity = currentUser(req);
  if (identity.scope) throw new AppError('ErrNoPermission');
  return { userId: identity.userId, serverId: currentServer(req).serverId };
}

/** `GET/POST /api/servers/{id}/oauth2`, `DELETE …/{clientId}`: the caller's clients bound to that server. */
export function serverClientsRoutes(app: App, clients: ClientsService): void {
  app.get('/api/servers/:id/oauth2', {
    config: { permission: 'authenticated', server: 'view' },
    schema: { tags, params: z.strictObject({ id }), response: { 200: z.array(oauthClientViewSchema) } },
    handler: async (req) => {
      const { userId, serverId } = callerOn(req);
      return (await clients.list(userId, serverId)).map(clientView);
    },
  });

  app.post('/api/servers/:id/oauth2', {
    config: { permission: 'authenticated', server: 'view', sessionOnly: true },
    schema: {
      tags,
      params: z.strictObject({ id }),
      body: oauthClientBodySchema,
      response: { 200: oauthClientCreatedSchema },
    },
    handler: (req) => {
      const { userId, serverId } = callerOn(req);
      return clients.create(userId, req.body.name, req.body.description, serverId);
    },
  });

  app.delete('/api/servers/:id/oauth2/:clientId', {
    config: { permission: 'authenticated', server: 'view', sessionOnly: true },
    schema: { tags, params: z.strictObject({ id, clientId: id }) },
    handler: async (req, reply) => {
      const { userId, serverId } = callerOn(req);
      await clients.delete(userId, req.params.clientId, serverId);
      return reply.status(204).send();
    },
  });
}
