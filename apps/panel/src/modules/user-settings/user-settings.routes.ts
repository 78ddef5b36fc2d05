import { z } from 'zod';
import { AppError } from '@hearth/contract';
import {
  userSettingBodySchema,
  userSettingKeys,
  userSettingsResponseSchema,
  userSettingValueSchemas,
  type UserSettingKey,
} from '@hearth/contract/settings';
import type { App } from '../../app-types';
import { issueToAppError } from '../../plugins/validation';
import { currentUser } from '../../plugins/auth';
import type { UserSettingsRepository } from './user-settings.repository';

const keyParams = z.strictObject({
  key: z.string().refine((k) => (userSettingKeys as readonly string[]).includes(k), {
    params: { code: 'ErrUnknownSetting' },
  }),
});

/** Keys with a value schema (`locale`) are checked here, reported on the body's `value` field. */
function checkValue(key: string, value: string): void {
  const schema = userSettingValueSchemas[key as UserSettingKey];
  const result = schema?.safeParse(value);
  if (!result || result.success) return;
  const issue = result.error.issues[0];
  throw issue
    ? issueToAppError({ ...issue, path: ['value'] })
    : new AppError('ErrFieldInvalid', { field: 'value' });
}

/** Per-user key/value settings (dark mode, preferred theme, locale). Thin enough to need no service. */
export function userSettingsRoutes(app: App, repo: UserSettingsRepository): void {
  app.get('/api/userSettings', {
    config: { permission: 'authenticated' },
    schema: { tags: ['self'], response: { 200: userSettingsResponseSchema } },
    handler: async (req) => repo.list(currentUser(req).userId),
  });

  app.put('/api/userSettings/:key', {
    config: { permission: 'authenticated' },
    schema: { tags: ['self'], params: keyParams, body: userSettingBodySchema },
    handler: async (req, reply) => {
      checkValue(req.params.key, req.body.value);
      await repo.set(currentUser(req).userId, req.params.key, req.body.value);
      return reply.status(204).send();
    },
  });
}
