import type { ActivityPage } from '@hearth/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';

export const ACTIVITY_PAGE_SIZE = 25;

/** The filters the screens offer (docs/activity.md § API); empty strings mean "any". */
export interface ActivityFilters {
  action: string;
  user: string;
  since: string; // datetime-local value
  until: string;
}

export const noFilters: ActivityFilters = { action: '', user: '', since: '', until: '' };

/** `/api/activity` (admins) or `/api/servers/{id}/activity` (the server flag). */
export function activityBase(serverId?: string): string {
  return serverId ? `/api/servers/${encodeURIComponent(serverId)}/activity` : '/api/activity';
}

export function activityParams(
  filters: ActivityFilters,
  extra: Record<string, string> = {},
): URLSearchParams {
  const params = new URLSearchParams(extra);
  if (filters.action.trim()) params.set('action', filters.action.trim());
  if (filters.user.trim()) params.set('user', filters.user.trim());
  const since = Date.parse(filters.since);
  const until = Date.parse(filters.until);
  if (Number.isFinite(since)) params.set('since', String(since));
  if (Number.isFinite(until)) params.set('until', String(until));
  return params;
}

export function activityQuery(base: string, filters: ActivityFilters, page: number) {
  const params = activityParams(filters, { page: String(page), limit: String(ACTIVITY_PAGE_SIZE) });
  return queryOptions({
    queryKey: ['activity', base, filters, page] as const,
    queryFn: () => api.get<ActivityPage>(`${base}?${params.toString()}`),
    placeholderData: keepPreviousData,
  });
}

/** Downloads the export through the API client (the session travels in its header, not in a link). */
export async function downloadActivity(base: string, filters: ActivityFilters, format: 'csv' | 'json') {
  const blob = await api.blob(`${base}?${activityParams(filters, { format }).toString()}`);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `activity.${format}`;
  link.click();
  URL.revokeObjectURL(url);
}
