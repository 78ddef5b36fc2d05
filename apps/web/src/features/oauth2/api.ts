import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';

export interface OAuthClient {
  client_id: string;
  name: string;
  description: string;
  /** A password change revoked its secret: it mints no more tokens (docs/security.md). */
  revoked: boolean;
}

export interface CreatedClient {
  id: string;
  secret: string;
}

/** Account clients inherit all the account's permissions; server clients only those on that server. */
export type ClientScope = { kind: 'account' } | { kind: 'server'; serverId: string };

function basePath(scope: ClientScope): string {
  return scope.kind === 'account'
    ? '/api/self/oauth2'
    : `/api/servers/${encodeURIComponent(scope.serverId)}/oauth2`;
}

export const oauthKeys = {
  all: ['oauth2'] as const,
  list: (scope: ClientScope) =>
    [...oauthKeys.all, scope.kind, scope.kind === 'server' ? scope.serverId : ''] as const,
};

export function clientsQuery(scope: ClientScope) {
  return queryOptions({
    queryKey: oauthKeys.list(scope),
    queryFn: () => api.get<OAuthClient[]>(basePath(scope)),
  });
}

export const oauthApi = {
  create: (scope: ClientScope, body: { name: string; description: string }) =>
    api.post<CreatedClient>(basePath(scope), body),
  remove: (scope: ClientScope, clientId: string) =>
    api.delete<void>(`${basePath(scope)}/${encodeURIComponent(clientId)}`),
};
