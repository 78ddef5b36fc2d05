import { z } from 'zod';
import { localeCodes, localeCodeSchema } from './locales';

/** Panel settings editable through `/api/settings`, with the type of each value. */
export const emailProviderNames = ['none', 'smtp', 'mailgun', 'mailjet'] as const;
export type EmailProviderName = (typeof emailProviderNames)[number];

const text = (max: number) => z.string().max(max);
const bool = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
const themeName = z
  .string()
  .max(64)
  .refine((v) => /^[A-Za-z0-9_-]*$/.test(v), { params: { code: 'ErrFieldInvalid' } });
const masterUrl = z
  .string()
  .max(2048)
  .refine((v) => v === '' || /^https?:\/\/[^\s/?#]+/.test(v), { params: { code: 'ErrFieldInvalid' } });
const email = z.union([z.literal(''), z.email().max(191)]);
/** Whole days, 1 to 3650, stored as text like the other values (docs/activity.md § Retention). */
const days = z
  .union([z.number(), z.string()])
  .transform(String)
  .refine((v) => /^[1-9][0-9]{0,3}$/.test(v) && Number(v) <= 3650, { params: { code: 'ErrFieldInvalid' } });

export const panelSettingSchemas = {
  'panel.settings.masterUrl': masterUrl,
  'panel.settings.companyName': text(100),
  'panel.settings.defaultTheme': themeName,
  'panel.settings.defaultLocale': localeCodeSchema,
  'panel.registrationEnabled': bool,
  'panel.email.provider': z.enum(emailProviderNames),
  'panel.email.from': email,
  'panel.email.domain': text(255),
  'panel.email.key': text(512),
  'panel.email.host': text(255),
  'panel.email.username': text(255),
  'panel.email.password': text(512),
  'panel.activity.retentionDays': days,
  /** Alerts' webhooks may reach loopback/private addresses (docs/alerts.md § SSRF); off by default. */
  'panel.alerts.allowPrivateTargets': bool,
} as const;

export type PanelSettingKey = keyof typeof panelSettingSchemas;
export const panelSettingKeys = Object.keys(panelSettingSchemas) as PanelSettingKey[];

/**
 * Secrets are never read back: GET answers `""` for them, and writing `""` keeps the stored value
 * (so the Settings page can save the form without knowing the secret).
 */
export const secretSettingKeys: readonly PanelSettingKey[] = ['panel.email.password', 'panel.email.key'];

export function isPanelSettingKey(key: string): key is PanelSettingKey {
  return Object.hasOwn(panelSettingSchemas, key);
}

export const settingValueBodySchema = z.strictObject({ value: z.unknown() });
export type SettingValueBody = z.infer<typeof settingValueBodySchema>;
export const settingValueResponseSchema = z.object({ value: z.union([z.string(), z.boolean()]) });
export type SettingValueResponse = z.infer<typeof settingValueResponseSchema>;
export const settingsMapBodySchema = z.record(z.string().max(191), z.unknown());
export type SettingsMapBody = z.infer<typeof settingsMapBodySchema>;

/** Per-user settings: string values only. */
export const userSettingKeys = ['dark', 'preferredTheme', 'locale'] as const;
export type UserSettingKey = (typeof userSettingKeys)[number];
/** Keys whose value is checked beyond "a string": `locale` picks the language of the user's e-mails. */
export const userSettingValueSchemas: Partial<Record<UserSettingKey, z.ZodType<string>>> = {
  locale: localeCodeSchema,
};
export const userSettingBodySchema = z.strictObject({ value: z.string().max(256) });
export type UserSettingBody = z.infer<typeof userSettingBodySchema>;
export const userSettingSchema = z.object({ key: z.string(), value: z.string() });
export type UserSetting = z.infer<typeof userSettingSchema>;
export const userSettingsResponseSchema = z.array(userSettingSchema);
export type UserSettingsResponse = z.infer<typeof userSettingsResponseSchema>;

export const appConfigSchema = z.object({
  branding: z.object({ name: z.string() }),
  themes: z.object({ active: z.string(), available: z.array(z.string()) }),
  registrationEnabled: z.boolean(),
  /** An e-mail provider is configured: the login page offers "forgot password" (docs/security.md). */
  passwordResetEnabled: z.boolean(),
  /** The panel's default language (`panel.settings.defaultLocale`): used until a visitor picks one. */
  defaultLocale: z.enum(localeCodes),
  /** The chunk size of the file manager's resumable uploads (the panel's `web.uploadChunkBytes`). */
  uploadChunkBytes: z.number().int().positive(),
});
export type AppConfig = z.infer<typeof appConfigSchema>;
