import { z } from 'zod';
import {
  oauthClientBodySchema,
  oauthClientCreatedSchema,
  oauthClientViewSchema,
} from '@hearth/contract/accounts';
import type { App } from '../../app-types';
import { currentUser } from '../../plugins/auth';
import type { ClientsService } from './clients.service';
import { clientView } from './client-view';
import { serverClientsRoutes } from './server-clients.routes';

const tags = ['self'];

/**
 * Account clients (`/api/self/oauth2`) and server clients (`/api/servers/{id}/oauth2`). Creating and deleting
 * them needs a login session: a token that could mint clients would outlive its own revocation.
 */
export function clientsRoutes(app: App, clients: ClientsService): void {
  serverClientsRoutes(app, clients);
  app.get('/api/self/oauth2', {
    config: { permission: 'authenticated' },
    schema: { tags, response: { 200: z.array(oauthClientViewSchema) } },
    handler: async (req) => (await clients.list(currentUser(req).userId)).map(clientView),
  });

  app.post('/api/self/oauth2', {
    config: { permission: 'authenticated', sessionOnly: true },
    schema: { tags, body: oauthClientBodySchema, response: { 200: oauthClientCreatedSchema } },
    handler: (req) => clients.create(currentUser(req).userId, req.body.name, req.body.description),
  });

  app.delete('/api/self/oauth2/:id', {
    config: { permission: 'authenticated', sessionOnly: true },
    schema: { tags, params: z.strictObject({ id: z.string().min(1).max(64) }) },
    handler: async (req, reply) => {
      await clients.delete(currentUser(req).userId, req.params.id);
      return reply.status(204).send();
    },
  });
}
