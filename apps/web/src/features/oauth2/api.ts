import type { OauthClientBody, OauthClientCreated, OauthClientView } from '@hearth/contract/accounts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';

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
    queryFn: () => api.get<OauthClientView[]>(basePath(scope)),
  });
}

export const oauthApi = {
  create: (scope: ClientScope, body: OauthClientBody) => api.post<OauthClientCreated>(basePath(scope), body),
  remove: (scope: ClientScope, clientId: string) =>
    api.delete<void>(`${basePath(scope)}/${encodeURIComponent(clientId)}`),
};
