import { z } from 'zod';
import {
  settingsMapBodySchema,
  settingValueBodySchema,
  settingValueResponseSchema,
} from '@hearth/contract/settings';
import { EMAIL_TEST_PER_MINUTE, emailTestResultSchema } from '@hearth/contract/email-test';
import type { App } from '../../app-types';
import { RateLimiter } from '../../lib/rate-limiter';
import { currentUser } from '../../plugins/auth';
import type { EmailService } from '../email/email.service';
import type { SettingsService } from './settings.service';

const keyParams = z.strictObject({ key: z.string().min(1).max(191) });

export function settingsRoutes(app: App, settings: SettingsService, email: EmailService): void {
  const limiter = new RateLimiter();
  const perMinute = { max: EMAIL_TEST_PER_MINUTE, windowMs: 60_000 };

  // Before `/api/settings/:key` in reading order only; the router tells the static path apart anyway.
  app.post('/api/settings/email/test', {
    config: { permission: 'admin' },
    schema: { tags: ['settings'], response: { 200: emailTestResultSchema } },
    handler: async (req) => {
      const { userId, email: to } = currentUser(req);
      limiter.hit(`email-test:${userId}`, perMinute);
      await email.sendTest(to, { userId });
      return { to };
    },
  });

  app.get('/api/settings/:key', {
    config: { permission: 'panelSettings' },
    schema: { tags: ['settings'], params: keyParams, response: { 200: settingValueResponseSchema } },
    handler: async (req) => ({ value: await settings.read(req.params.key) }),
  });

  app.put('/api/settings/:key', {
    config: { permission: 'panelSettings' },
    schema: { tags: ['settings'], params: keyParams, body: settingValueBodySchema },
    handler: async (req, reply) => {
      await settings.write({ [req.params.key]: req.body.value }, () => 'value');
      return reply.status(204).send();
    },
  });

  app.post('/api/settings', {
    config: { permission: 'panelSettings' },
    schema: { tags: ['settings'], body: settingsMapBodySchema },
    handler: async (req, reply) => {
      await settings.write(req.body);
      return reply.status(204).send();
    },
  });
}
