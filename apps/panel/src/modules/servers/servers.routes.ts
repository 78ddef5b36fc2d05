import { z } from 'zod';
import {
  createServerBodySchema,
  serverCreatedSchema,
  serverDeletedSchema,
  serverDetailSchema,
  serverNameSchema,
  serversPageSchema,
  serversQuerySchema,
  serverUserBodySchema,
  serverUserInvitedSchema,
  serverUserViewSchema,
} from '@hearth/contract/servers';
import type { App } from '../../app-types';
import { currentServer, currentUser } from '../../plugins/auth';
import type { ServersService } from './servers.service';

const tags = ['servers'];
const id = z.string().min(1).max(64);
const idParams = z.strictObject({ id });
const emailParams = z.strictObject({ id, email: z.email() });

/**
 * The hot list (bench:api): its body is built field by field by the presenter and typed by the contract, so
 * re-validating every response through zod (~the route's largest own cost) buys nothing; plain JSON.stringify.
 * Per-request access logs at info would be one line per poll of every open browser: warn and above only.
 */
const hotRoute = {
  serializerCompiler: () => (data: unknown) => JSON.stringify(data),
  logLevel: 'warn',
} as const;

/** Server routes declare `server:` — the auth hook resolves the caller's access (404 / 403) first. */
export function serversRoutes(app: App, servers: ServersService): void {
  app.get('/api/servers', {
    ...hotRoute,
    config: { permission: 'authenticated' },
    schema: { tags, querystring: serversQuerySchema, response: { 200: serversPageSchema } },
    handler: (req) => servers.page(currentUser(req), req.query),
  });

  app.post('/api/servers', {
    config: { permission: 'createServers' },
    schema: { tags, body: createServerBodySchema, response: { 200: serverCreatedSchema } },
    handler: (req) => servers.create(currentUser(req), req.body),
  });

  app.get('/api/servers/:id', {
    config: { permission: 'authenticated', server: 'view' },
    schema: { tags, params: idParams, response: { 200: serverDetailSchema } },
    handler: (req) => {
      const withPerms = Object.prototype.hasOwnProperty.call(req.query ?? {}, 'perms');
      return servers.get(currentUser(req), currentServer(req), withPerms);
    },
  });

  app.delete('/api/servers/:id', {
    config: { permission: 'deleteServers', server: 'view' },
    schema: { tags, params: idParams, response: { 200: serverDeletedSchema, 204: z.null() } },
    handler: async (req, reply) => {
      const result = await servers.delete(currentUser(req), currentServer(req));
      return result.warning ? result : reply.status(204).send(null);
    },
  });

  app.put('/api/servers/:id/name/:name', {
    config: { permission: 'authenticated', server: 'editServerData' },
    schema: { tags, params: z.strictObject({ id, name: serverNameSchema }) },
    handler: async (req, reply) => {
      await servers.rename(currentServer(req), req.params.name);
      return reply.status(204).send();
    },
  });

  app.get('/api/servers/:id/user', {
    config: { permission: 'authenticated', server: 'editServerUsers' },
    schema: { tags, params: idParams, response: { 200: z.array(serverUserViewSchema) } },
    handler: (req) => servers.users(currentServer(req).serverId),
  });

  app.put('/api/servers/:id/user/:email', {
    config: { permission: 'authenticated', server: 'editServerUsers' },
    schema: {
      tags,
      params: emailParams,
      body: serverUserBodySchema,
      response: { 200: serverUserInvitedSchema, 204: z.null() },
    },
    handler: async (req, reply) => {
      const { invitation } = await servers.setUser(
        currentUser(req),
        currentServer(req),
        req.params.email,
        req.body,
      );
      return invitation ? { invitation } : reply.status(204).send(null);
    },
  });

  app.delete('/api/servers/:id/user/:email', {
    config: { permission: 'authenticated', server: 'editServerUsers' },
    schema: { tags, params: emailParams },
    handler: async (req, reply) => {
      await servers.removeUser(currentUser(req), currentServer(req), req.params.email);
      return reply.status(204).send();
    },
  });
}
