import { sessionResponseSchema, setupBodySchema, setupCheckBodySchema } from '@hearth/contract/auth';
import { z } from 'zod';
import type { App } from '../../app-types';
import { setSessionCookie } from '../../plugins/session-cookie';
import type { SetupService } from './setup.service';

export function setupRoutes(app: App, setup: SetupService): void {
  app.post('/auth/setup', {
    config: { permission: 'public' },
    schema: { tags: ['auth'], body: setupBodySchema, response: { 200: sessionResponseSchema } },
    handler: async (req, reply) => {
      const result = await setup.complete(req.body);
      setSessionCookie(req, reply, result.session);
      return result;
    },
  });

  // POST so the token stays out of access logs; 204 while the link works, else ErrSetupTokenInvalid.
  app.post('/auth/setup/check', {
    config: { permission: 'public' },
    schema: { tags: ['auth'], body: setupCheckBodySchema, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await setup.check(req.body.token);
      return reply.code(204).send(null);
    },
  });
}
