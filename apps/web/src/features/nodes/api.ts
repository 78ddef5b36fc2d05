import type { DaemonFeatures } from '@hearth/contract';
import type {
  NodeBody,
  NodeChoice,
  NodeCreated,
  NodeDeployment,
  NodeUpdate,
  NodeView,
} from '@hearth/contract/nodes';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ApiError } from '../../api/errors';

export const nodeKeys = {
  all: ['nodes'] as const,
  list: () => [...nodeKeys.all, 'list'] as const,
  choices: () => [...nodeKeys.all, 'choices'] as const,
  one: (id: string) => [...nodeKeys.all, 'one', id] as const,
  features: (id: string) => [...nodeKeys.all, 'features', id] as const,
  linkState: (id: string) => [...nodeKeys.all, 'link-state', id] as const,
  deployment: (id: string) => [...nodeKeys.all, 'deployment', id] as const,
  /** A deployment that carries a just-issued secret, handed from the add page to the node page once. */
  issued: (id: string) => [...nodeKeys.all, 'issued', id] as const,
};

export const nodesQuery = queryOptions({
  queryKey: nodeKeys.list(),
  queryFn: () => api.get<NodeView[]>('/api/nodes'),
});

/**
 * The Add Server node picker (createServers; no viewNodes needed). What each node runs comes from the panel's
 * cached probe, so it is asked again while the page is open: a node just started shows its environments soon.
 */
export const nodeChoicesQuery = queryOptions({
  queryKey: nodeKeys.choices(),
  queryFn: () => api.get<NodeChoice[]>('/api/nodes/choices'),
  refetchInterval: 5_000,
});

export const nodeQuery = (id: string) =>
  queryOptions({
    queryKey: nodeKeys.one(id),
    queryFn: () => api.get<NodeView>(`/api/nodes/${encodeURIComponent(id)}`),
  });

/**
 * An outbound node's link state, asked again every 5 s while the Node page is open. A query of its own: the
 * form's copy of the node is not refetched, so a live state never overwrites what is being edited.
 */
export const nodeLinkStateQuery = (id: string) =>
  queryOptions({
    queryKey: nodeKeys.linkState(id),
    queryFn: async () => (await api.get<NodeView>(`/api/nodes/${encodeURIComponent(id)}`)).linkState ?? null,
    refetchInterval: 5_000,
  });

/** unknown: the panel cannot tell (no answer yet, or it does not report node features). */
export type NodeStatus = 'unknown' | 'online' | 'offline';

export interface NodeHealth {
  status: NodeStatus;
  features?: DaemonFeatures;
}

/** The panel answers for an unreachable node with these (docs/api.md Daemon proxy). */
const OFFLINE_CODES = new Set(['ErrNodeOffline', 'ErrNodeTimeout']);

/**
 * Online when the node answers its features (PufferPanel's `GET /api/nodes/{id}/features`), offline when the
 * panel says it cannot reach it; anything else (e.g. a panel without the route) leaves it unknown.
 */
async function fetchHealth(id: string): Promise<NodeHealth> {
  try {
    const features = await api.get<DaemonFeatures>(`/api/nodes/${encodeURIComponent(id)}/features`);
    return { status: 'online', features };
  } catch (err) {
    if (err instanceof ApiError && (OFFLINE_CODES.has(err.code ?? '') || err.status === 502)) {
      return { status: 'offline' };
    }
    return { status: 'unknown' };
  }
}

export const nodeHealthQuery = (id: string) =>
  queryOptions({
    queryKey: nodeKeys.features(id),
    queryFn: () => fetchHealth(id),
    refetchInterval: 15_000,
    retry: false,
  });

/** The complete deployment instructions (deployNodes); reading them changes nothing. */
export const deploymentQuery = (id: string) =>
  queryOptions({
    queryKey: nodeKeys.deployment(id),
    queryFn: () => api.get<NodeDeployment>(`/api/nodes/${encodeURIComponent(id)}/deployment`),
  });

export const nodesApi = {
  /** The answer carries the node's deployment (its secret and certificate, issued now). */
  create: (body: NodeBody) => api.post<NodeCreated>('/api/nodes', body),
  update: (id: string, body: NodeUpdate) => api.put<void>(`/api/nodes/${encodeURIComponent(id)}`, body),
  remove: (id: string) => api.delete<void>(`/api/nodes/${encodeURIComponent(id)}`),
  /** Issues a fresh node secret and certificate (the previous ones stop working). */
  rotate: (id: string) => api.post<NodeDeployment>(`/api/nodes/${encodeURIComponent(id)}/deployment/rotate`),
};
