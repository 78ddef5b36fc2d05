import type {
  EmailProviderName,
  PanelSettingKey,
  SettingsMapBody,
  SettingValueResponse,
} from '@hearth/contract/settings';
import type { EmailTestResult } from '@hearth/contract/email-test';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';

/** The settings the page edits (docs/api.md § Settings), with the form field each maps to. */
export const settingKeys = {
  masterUrl: 'panel.settings.masterUrl',
  companyName: 'panel.settings.companyName',
  defaultTheme: 'panel.settings.defaultTheme',
  registrationEnabled: 'panel.registrationEnabled',
  provider: 'panel.email.provider',
  from: 'panel.email.from',
  domain: 'panel.email.domain',
  key: 'panel.email.key',
  host: 'panel.email.host',
  username: 'panel.email.username',
  password: 'panel.email.password',
} as const satisfies Record<string, PanelSettingKey>;

export type SettingField = keyof typeof settingKeys;
export type SettingsValues = Record<Exclude<SettingField, 'registrationEnabled'>, string> & {
  registrationEnabled: boolean;
};

/** E-mail fields shown per provider. */
export const providerFields: Record<EmailProviderName, SettingField[]> = {
  none: [],
  smtp: ['from', 'host', 'username', 'password'],
  mailgun: ['domain', 'from', 'key'],
  mailjet: ['domain', 'from', 'key'],
};

export const settingsKeys = {
  all: ['settings'] as const,
  values: () => [...settingsKeys.all, 'values'] as const,
};

async function loadAll(): Promise<SettingsValues> {
  const entries = await Promise.all(
    Object.entries(settingKeys).map(async ([field, key]) => {
      const reply = await api.get<SettingValueResponse | undefined>(`/api/settings/${key}`);
      return [field, reply?.value] as const;
    }),
  );
  const raw = Object.fromEntries(entries) as Record<SettingField, string | boolean | undefined>;
  const text = (v: string | boolean | undefined) => (v === undefined ? '' : String(v));
  return {
    ...(Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, text(v)])) as Record<
      SettingField,
      string
    >),
    registrationEnabled: raw.registrationEnabled === true || raw.registrationEnabled === 'true',
    provider: text(raw.provider) || 'none',
  };
}

export const settingsQuery = queryOptions({ queryKey: settingsKeys.values(), queryFn: loadAll });

export function saveSettings(values: SettingsValues): Promise<void> {
  const body: SettingsMapBody = Object.fromEntries(
    Object.entries(settingKeys).map(([field, key]) => [key, values[field as SettingField]]),
  );
  return api.post<void>('/api/settings', body);
}

/** Sends a test mail to the caller with the saved settings (administrators only). */
export function sendTestEmail(): Promise<EmailTestResult> {
  return api.post<EmailTestResult>('/api/settings/email/test');
}
