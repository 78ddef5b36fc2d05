import type { ServerPermission } from '@hearth/contract';
import type { ServerView } from '@hearth/contract/servers';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';

export const PAGE_SIZE = 10;

export interface ServersPage {
  servers: ServerView[];
  paging: { page: number; pageSize: number; total: number };
}

/** The caller's flags on one server (`?perms`), including deleteServer. */
export type ServerPermissions = Record<ServerPermission | 'deleteServer', boolean>;

export interface ServerDetail {
  server: ServerView;
  permissions: ServerPermissions;
}

export type ServerUserFlags = Record<ServerPermission, boolean>;
export interface ServerUser extends ServerUserFlags {
  email: string;
  username: string;
}

/** A variable as the daemon's data route gives it (only userEdit ones for non-admins). */
export interface ServerVariable {
  display?: string;
  desc?: string;
  type?: 'string' | 'boolean' | 'integer' | 'option';
  value?: unknown;
  required?: boolean;
  userEdit?: boolean;
  options?: { value: unknown; display?: string }[];
  /** Bounds of an integer variable (a Hearth extension of the template format; a port is 1–65535). */
  min?: number;
  max?: number;
}

export const serverKeys = {
  all: ['servers'] as const,
  list: (page: number) => [...serverKeys.all, 'list', page] as const,
  detail: (id: string) => [...serverKeys.all, 'detail', id] as const,
  users: (id: string) => [...serverKeys.all, 'users', id] as const,
  data: (id: string) => [...serverKeys.all, 'data', id] as const,
  definition: (id: string) => [...serverKeys.all, 'definition', id] as const,
};

const enc = encodeURIComponent;
const proxy = (id: string) => `/proxy/daemon/server/${enc(id)}`;

export const serversListQuery = (page: number) =>
  queryOptions({
    queryKey: serverKeys.list(page),
    queryFn: () => api.get<ServersPage>(`/api/servers?page=${page}&limit=${PAGE_SIZE}`),
    placeholderData: keepPreviousData,
  });

export const serverQuery = (id: string) =>
  queryOptions({
    queryKey: serverKeys.detail(id),
    queryFn: () => api.get<ServerDetail>(`/api/servers/${enc(id)}?perms`),
  });

export const serverUsersQuery = (id: string) =>
  queryOptions({
    queryKey: serverKeys.users(id),
    queryFn: () => api.get<ServerUser[]>(`/api/servers/${enc(id)}/user`),
  });

export const serverDataQuery = (id: string) =>
  queryOptions({
    queryKey: serverKeys.data(id),
    queryFn: async () => (await api.get<{ data: Record<string, ServerVariable> }>(`${proxy(id)}/data`)).data,
  });

export type PowerAction = 'start' | 'stop' | 'kill' | 'install';

export const serversApi = {
  create: (body: Record<string, unknown>) => api.post<{ id: string }>('/api/servers', body),
  remove: (id: string) => api.delete<{ warning?: string } | undefined>(`/api/servers/${enc(id)}`),
  rename: (id: string, name: string) => api.put<void>(`/api/servers/${enc(id)}/name/${enc(name)}`),
  status: (id: string) => api.get<{ running: boolean; installing?: boolean }>(`${proxy(id)}/status`),
  power: (id: string, action: PowerAction, wait = false) =>
    api.post<void>(`${proxy(id)}/${action}?wait=${wait}`),
  /** The daemon takes `{data: {name: {value}}}` and changes only the values given. */
  saveData: (id: string, values: Record<string, unknown>) =>
    api.post<void>(`${proxy(id)}/data`, {
      data: Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { value }])),
    }),
  reload: (id: string) => api.post<void>(`${proxy(id)}/reload`),
  setUser: (id: string, email: string, flags: ServerUserFlags) =>
    api.put<void>(`/api/servers/${enc(id)}/user/${enc(email)}`, flags),
  removeUser: (id: string, email: string) => api.delete<void>(`/api/servers/${enc(id)}/user/${enc(email)}`),
};
