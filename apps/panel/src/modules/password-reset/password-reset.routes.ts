import { passwordForgotBodySchema, passwordResetBodySchema } from '@hearth/contract/auth';
import type { App } from '../../app-types';
import type { PasswordResetService } from './password-reset.service';

const tags = ['auth'];

/** "Forgot password" (docs/security.md § Password reset): both answer 204; only a bad link is an error. */
export function passwordResetRoutes(app: App, resets: PasswordResetService): void {
  app.post('/auth/password/forgot', {
    config: { permission: 'public' },
    schema: { tags, body: passwordForgotBodySchema },
    handler: async (req, reply) => {
      await resets.request(req.ip, req.body.email);
      return reply.status(204).send();
    },
  });

  app.post('/auth/password/reset', {
    config: { permission: 'public' },
    schema: { tags, body: passwordResetBodySchema },
    handler: async (req, reply) => {
      await resets.reset(req.ip, req.body.token, req.body.password);
      return reply.status(204).send();
    },
  });
}
