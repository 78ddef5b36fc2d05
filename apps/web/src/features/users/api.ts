import { panelPermissions, type PanelPermissionSet } from '@hearth/contract';
import type {
  CreateUserBody,
  InviteCreated,
  PermissionsView,
  UpdateUserBody,
  UsersPage,
  UserView,
} from '@hearth/contract/accounts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';

export const PAGE_SIZE = 10;

export const usersKeys = {
  all: ['users'] as const,
  list: (page: number, search: string) => [...usersKeys.all, 'list', page, search] as const,
  detail: (id: string) => [...usersKeys.all, 'detail', id] as const,
  perms: (id: string) => [...usersKeys.all, 'perms', id] as const,
};

export function usersListQuery(page: number, search: string) {
  const params = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE) });
  // The API matches `*` as a wildcard; the list searches anywhere in the username (docs/api.md § Users).
  if (search.trim()) params.set('username', `*${search.trim()}*`);
  return queryOptions({
    queryKey: usersKeys.list(page, search.trim()),
    queryFn: () => api.get<UsersPage>(`/api/users?${params.toString()}`),
    placeholderData: keepPreviousData,
  });
}

export const userQuery = (id: string) =>
  queryOptions({ queryKey: usersKeys.detail(id), queryFn: () => api.get<UserView>(`/api/users/${id}`) });

export const permsQuery = (id: string) =>
  queryOptions({
    queryKey: usersKeys.perms(id),
    queryFn: async () => toFlags(await api.get<PermissionsView>(`/api/users/${id}/perms`)),
  });

/** Only the flags (the answer also names the user). */
export function toFlags(raw: Partial<PanelPermissionSet>): PanelPermissionSet {
  return Object.fromEntries(panelPermissions.map((p) => [p, raw[p] === true])) as PanelPermissionSet;
}

export const usersApi = {
  create: (body: CreateUserBody) => api.post<UserView>('/api/users', body),
  update: (id: string, body: UpdateUserBody) => api.post<void>(`/api/users/${id}`, body),
  setPerms: (id: string, perms: PanelPermissionSet) => api.put<void>(`/api/users/${id}/perms`, perms),
  remove: (id: string) => api.delete<void>(`/api/users/${id}`),
  invite: (email: string) => api.post<InviteCreated>('/api/users/invite', { email }),
  /** Two-factor off for a lost device (docs/security.md § Two-factor). */
  resetOtp: (id: string) => api.delete<void>(`/api/users/${id}/otp`),
};
