import { z } from 'zod';
import { AppError } from '@hearth/contract';
import { DEFAULT_LOCALE, isLocaleCode, type LocaleCode } from '@hearth/contract/locales';
import { appConfigSchema } from '@hearth/contract/settings';
import type { App } from '../../app-types';
import type { SettingsService } from '../settings/settings.service';
import { listThemes, readTheme } from './themes';

function effectiveLocale(value: unknown): LocaleCode {
  return isLocaleCode(value) ? value : DEFAULT_LOCALE;
}

/** `GET /api/config` (public app config) and `GET /theme/{name}.tar`. */
export function appConfigRoutes(
  app: App,
  settings: SettingsService,
  themesDir: string,
  uploadChunkBytes: number,
): void {
  app.get('/api/config', {
    config: { permission: 'public' },
    schema: { tags: ['config'], response: { 200: appConfigSchema } },
    handler: async () => {
      const [effective, available] = await Promise.all([settings.effective(), listThemes(themesDir)]);
      const wanted = String(effective['panel.settings.defaultTheme']);
      const active = available.includes(wanted) ? wanted : (available[0] ?? wanted);
      return {
        branding: { name: String(effective['panel.settings.companyName']) || 'Hearth' },
        themes: { active, available },
        registrationEnabled: effective['panel.registrationEnabled'] === true,
        passwordResetEnabled: effective['panel.email.provider'] !== 'none',
        defaultLocale: effectiveLocale(effective['panel.settings.defaultLocale']),
        uploadChunkBytes,
      };
    },
  });

  app.get('/theme/:file', {
    config: { permission: 'public' },
    schema: { tags: ['config'], params: z.strictObject({ file: z.string().max(80) }) },
    handler: async (req, reply) => {
      const name = req.params.file.endsWith('.tar') ? req.params.file.slice(0, -4) : '';
      const tar = await readTheme(themesDir, name);
      if (!tar) throw new AppError('ErrNotFound');
      return reply.type('application/x-tar').header('Cache-Control', 'no-cache').send(tar);
    },
  });
}
