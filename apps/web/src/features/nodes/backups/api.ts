/** A node's backup destination and checks (administrators; docs/backups.md § Destinations, § Verification). */
import type { BackupCheckResult, BackupDestinationInput, BackupNodeStatus } from '@hearth/contract/backups';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';

const base = (nodeId: string) => `/api/nodes/${encodeURIComponent(nodeId)}/backups`;

export const nodeBackupsKey = (nodeId: string) => ['nodes', 'backups', nodeId] as const;

export const nodeBackupsQuery = (nodeId: string) =>
  queryOptions({ queryKey: nodeBackupsKey(nodeId), queryFn: () => api.get<BackupNodeStatus>(base(nodeId)) });

export const nodeBackupsApi = {
  save: (nodeId: string, destination: BackupDestinationInput) =>
    api.put<void>(`${base(nodeId)}/destination`, destination),
  check: (nodeId: string) => api.post<BackupCheckResult>(`${base(nodeId)}/check`),
};
