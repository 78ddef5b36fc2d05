import { z } from 'zod';
import {
  settingsMapBodySchema,
  settingValueBodySchema,
  settingValueResponseSchema,
} from '@hearth/contract/settings';
import type { App } from '../../app-types';
import type { SettingsService } from './settings.service';

const keyParams = z.strictObject({ key: z.string().min(1).max(191) });

export function settingsRoutes(app: App, settings: SettingsService): void {
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
