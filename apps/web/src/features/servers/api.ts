import type { ServerDataResponse, ServerDataUpdate, StatusResponse } from '@hearth/contract';
import type {
  CreateServerBody,
  ServerCreated,
  ServerDeleted,
  ServerDetail,
  ServersPage,
  ServerUserBody,
  ServerUserInvited,
  ServerUserView,
} from '@hearth/contract/servers';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';

export const PAGE_SIZE = 10;

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

/** How often the list asks again: its status, CPU, memory and players come from the panel's few-seconds cache. */
export const SERVERS_LIST_REFRESH_MS = 5_000;

/** A page of the server list, `q` filtering by name (the caller's own servers come first). */
export const serversListQuery = (page: number, q = '') =>
  queryOptions({
    queryKey: [...serverKeys.list(page), q],
    queryFn: () =>
      api.get<ServersPage>(`/api/servers?page=${page}&limit=${PAGE_SIZE}${q ? `&q=${enc(q)}` : ''}`),
    placeholderData: keepPreviousData,
    refetchInterval: SERVERS_LIST_REFRESH_MS,
  });

export const serverQuery = (id: string) =>
  queryOptions({
    queryKey: serverKeys.detail(id),
    // `?perms` brings the caller's flags on the server with it, so they are always there.
    queryFn: () => api.get<Required<ServerDetail>>(`/api/servers/${enc(id)}?perms`),
  });

export const serverUsersQuery = (id: string) =>
  queryOptions({
    queryKey: serverKeys.users(id),
    queryFn: () => api.get<ServerUserView[]>(`/api/servers/${enc(id)}/user`),
  });

export const serverDataQuery = (id: string) =>
  queryOptions({
    queryKey: serverKeys.data(id),
    queryFn: async (): Promise<ServerDataResponse> => api.get<ServerDataResponse>(`${proxy(id)}/data`),
  });

export type PowerAction = 'start' | 'stop' | 'kill' | 'install';

export const serversApi = {
  create: (body: CreateServerBody) => api.post<ServerCreated>('/api/servers', body),
  /** Empty (204) when the node deleted the files too. */
  remove: (id: string) => api.delete<ServerDeleted | undefined>(`/api/servers/${enc(id)}`),
  rename: (id: string, name: string) => api.put<void>(`/api/servers/${enc(id)}/name/${enc(name)}`),
  status: (id: string) => api.get<StatusResponse>(`${proxy(id)}/status`),
  power: (id: string, action: PowerAction, wait = false) =>
    api.post<void>(`${proxy(id)}/${action}?wait=${wait}`),
  /** The daemon takes `{data: {name: {value}}}` and changes only the values given. */
  saveData: (id: string, values: Record<string, unknown>) =>
    api.post<void>(`${proxy(id)}/data`, {
      data: Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { value }])),
    } satisfies ServerDataUpdate),
  reload: (id: string) => api.post<void>(`${proxy(id)}/reload`),
  /** An unknown e-mail is invited: the answer then carries the invitation (docs/security.md § Invitations). */
  setUser: (id: string, email: string, flags: ServerUserBody) =>
    api.put<ServerUserInvited | undefined>(`/api/servers/${enc(id)}/user/${enc(email)}`, flags),
  removeUser: (id: string, email: string) => api.delete<void>(`/api/servers/${enc(id)}/user/${enc(email)}`),
};
