import { z } from 'zod';
import {
  createUserBodySchema,
  permissionsBodySchema,
  permissionsViewSchema,
  updateUserBodySchema,
  usersPageSchema,
  usersQuerySchema,
  userViewSchema,
} from '@hearth/contract/accounts';
import type { App } from '../../app-types';
import { currentUser } from '../../plugins/auth';
import type { UserRow } from './users.repository';
import type { UsersService } from './users.service';

const tags = ['users'];
const idParams = z.strictObject({ id: z.string().min(1).max(64) });
/** An invited account's username is a placeholder until they register: the e-mail names it (docs/security.md). */
const view = (u: UserRow) =>
  u.status === 'invited'
    ? { id: u.id, username: u.email, email: u.email, pending: true }
    : { id: u.id, username: u.username, email: u.email };

export function usersRoutes(app: App, users: UsersService): void {
  app.get('/api/users', {
    config: { permission: 'viewUsers' },
    schema: { tags, querystring: usersQuerySchema, response: { 200: usersPageSchema } },
    handler: async (req) => {
      const { rows, total } = await users.page(req.query);
      return {
        users: rows.map(view),
        paging: { page: req.query.page, pageSize: req.query.limit, maxSize: 100, total },
      };
    },
  });

  app.post('/api/users', {
    config: { permission: 'editUsers' },
    schema: { tags, body: createUserBodySchema, response: { 200: userViewSchema } },
    handler: async (req) => view(await users.create(req.body)),
  });

  app.get('/api/users/:id', {
    config: { permission: 'viewUsers' },
    schema: { tags, params: idParams, response: { 200: userViewSchema } },
    handler: async (req) => view(await users.get(req.params.id)),
  });

  app.post('/api/users/:id', {
    config: { permission: 'editUsers' },
    schema: { tags, params: idParams, body: updateUserBodySchema },
    handler: async (req, reply) => {
      await users.update(currentUser(req), req.params.id, req.body);
      return reply.status(204).send();
    },
  });

  app.delete('/api/users/:id', {
    config: { permission: 'editUsers' },
    schema: { tags, params: idParams },
    handler: async (req, reply) => {
      await users.delete(currentUser(req), req.params.id);
      return reply.status(204).send();
    },
  });

  app.delete('/api/users/:id/otp', {
    config: { permission: 'editUsers' },
    schema: { tags, params: idParams },
    handler: async (req, reply) => {
      await users.resetOtp(currentUser(req), req.params.id);
      return reply.status(204).send();
    },
  });

  app.get('/api/users/:id/perms', {
    config: { permission: 'viewUsers' },
    schema: { tags, params: idParams, response: { 200: permissionsViewSchema } },
    handler: (req) => users.getPermissions(req.params.id),
  });

  app.put('/api/users/:id/perms', {
    config: { permission: 'editUsers' },
    schema: { tags, params: idParams, body: permissionsBodySchema },
    handler: async (req, reply) => {
      await users.setPermissions(currentUser(req), req.params.id, req.body);
      return reply.status(204).send();
    },
  });
}
