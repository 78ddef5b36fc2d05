import type { AppConfig, UserSettingBody, UserSettingsResponse } from '@hearth/contract/settings';
import { queryOptions } from '@tanstack/react-query';
import { api } from './client';

/** Key factory for the shell's own data; features keep theirs beside their pages. */
export const shellKeys = {
  config: ['config'] as const,
  userSettings: ['userSettings'] as const,
};

export const configQuery = queryOptions({
  queryKey: shellKeys.config,
  queryFn: () => api.get<AppConfig>('/api/config'),
  staleTime: 5 * 60_000,
});

export const userSettingsQuery = queryOptions({
  queryKey: shellKeys.userSettings,
  queryFn: () => api.get<UserSettingsResponse>('/api/userSettings'),
});

export function putUserSetting(key: string, value: string): Promise<void> {
  return api.put<void>(`/api/userSettings/${encodeURIComponent(key)}`, { value } satisfies UserSettingBody);
}
