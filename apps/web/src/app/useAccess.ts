import type { ServersPage } from '@hearth/contract/servers';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { hasScope } from '../api/scopes';
import { useSession } from '../api/useSession';
import type { Access } from './routes';

/**
 * Whether the caller holds permissions on any server. The panel's server list answers every logged-in user with
 * their own servers only, so one row of it tells (docs/permissions.md § Web guards).
 */
export const hasServersQuery = queryOptions({
  queryKey: ['access', 'hasServers'],
  queryFn: async () => (await api.get<ServersPage>('/api/servers?page=1&limit=1')).paging.total > 0,
  staleTime: 30_000,
});

/** The caller's access for guards and the sidebar; `pending` while the server probe has not answered yet. */
export function useAccess(): Access & { pending: boolean } {
  const { token, scopes } = useSession();
  // With servers.view the list is theirs anyway; only others need the probe.
  const probe = Boolean(token) && !hasScope(scopes, 'servers.view');
  const servers = useQuery({ ...hasServersQuery, enabled: probe });
  return { scopes, hasServers: servers.data === true, pending: probe && servers.isPending };
}
