import { sessionResponseSchema, setupBodySchema } from '@hearth/contract/auth';
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
}
