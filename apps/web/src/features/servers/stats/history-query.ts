import type { HistoryRange, HistoryResponse } from '@hearth/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { HISTORY_REFRESH_MS } from './history-model';

/** `GET /proxy/daemon/server/{id}/history?range=` (viewServerStats), refreshed while the range is shown. */
export const serverHistoryQuery = (id: string, range: HistoryRange) =>
  queryOptions({
    queryKey: ['servers', 'history', id, range] as const,
    queryFn: () =>
      api.get<HistoryResponse>(`/proxy/daemon/server/${encodeURIComponent(id)}/history?range=${range}`),
    refetchInterval: HISTORY_REFRESH_MS,
  });
