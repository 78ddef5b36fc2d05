/**
 * The Backups tab's calls: the panel's `/proxy/daemon/server/{id}/backup…` routes (docs/backups.md § Server
 * routes). Downloads are plain links the browser saves itself (streamed; nothing held in memory).
 */
import type {
  BackupCloneBody,
  BackupCloned,
  BackupCreated,
  BackupList,
  BackupPolicyInput,
  BackupPolicyView,
  BackupRestoreBody,
  BackupRestored,
  BackupTree,
} from '@hearth/contract/backups';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';

const base = (serverId: string) => `/proxy/daemon/server/${encodeURIComponent(serverId)}`;
const one = (serverId: string, backupId: string) =>
  `${base(serverId)}/backup/${encodeURIComponent(backupId)}`;

export const backupKeys = {
  list: (serverId: string) => ['servers', 'backups', serverId] as const,
  policy: (serverId: string) => ['servers', 'backups', serverId, 'policy'] as const,
  tree: (serverId: string, backupId: string, path: string) =>
    ['servers', 'backups', serverId, 'tree', backupId, path] as const,
};

export const backupsQuery = (serverId: string) =>
  queryOptions({
    queryKey: backupKeys.list(serverId),
    queryFn: () => api.get<BackupList>(`${base(serverId)}/backup`),
  });

export const policyQuery = (serverId: string) =>
  queryOptions({
    queryKey: backupKeys.policy(serverId),
    queryFn: () => api.get<BackupPolicyView>(`${base(serverId)}/backup-policy`),
  });

export const treeQuery = (serverId: string, backupId: string, path: string) =>
  queryOptions({
    queryKey: backupKeys.tree(serverId, backupId, path),
    queryFn: () =>
      api.get<BackupTree>(`${one(serverId, backupId)}/tree?${new URLSearchParams({ path }).toString()}`),
  });

export const downloadUrl = (serverId: string, backupId: string, path: string, format: 'tar.gz' | 'zip') =>
  `${one(serverId, backupId)}/download?${new URLSearchParams({ path, format }).toString()}`;

export const backupsApi = {
  create: (serverId: string) => api.post<BackupCreated>(`${base(serverId)}/backup`),
  restore: (serverId: string, backupId: string, body: BackupRestoreBody) =>
    api.post<BackupRestored>(`${one(serverId, backupId)}/restore`, body),
  /** A new server (administrators): made from this server's definition, then the backup restored into it. */
  clone: (serverId: string, backupId: string, body: BackupCloneBody) =>
    api.post<BackupCloned>(
      `/api/servers/${encodeURIComponent(serverId)}/backup/${encodeURIComponent(backupId)}/clone`,
      body,
    ),
  lock: (serverId: string, backupId: string, locked: boolean) =>
    api.put<void>(`${one(serverId, backupId)}/lock`, { locked }),
  remove: (serverId: string, backupId: string) => api.delete<void>(one(serverId, backupId)),
  savePolicy: (serverId: string, policy: BackupPolicyInput) =>
    api.put<void>(`${base(serverId)}/backup-policy`, policy),
};
