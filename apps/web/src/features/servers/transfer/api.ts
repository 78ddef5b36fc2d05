import type { ServerTransferBody, TransferState } from '@hearth/contract/transfer';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { ApiError } from '../../../api/errors';
import { serverKeys } from '../api';

const enc = encodeURIComponent;

export const transferKey = (id: string) => [...serverKeys.all, 'transfer', id] as const;

/**
 * The server's current or last move, or null when it never moved (the panel answers 404 ErrTransferNotFound).
 * Silent: it is asked every few seconds while a move runs, and a node or panel hiccup must not toast each time.
 */
export const transferQuery = (id: string, refetchInterval: number | false) =>
  queryOptions({
    queryKey: transferKey(id),
    queryFn: async (): Promise<TransferState | null> => {
      try {
        return await api.get<TransferState>(`/api/servers/${enc(id)}/transfer`);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    meta: { silent: true },
    refetchInterval,
  });

/** Starts the move (admins only); the panel answers 202 with the transfer's first state. */
export const startTransfer = (id: string, node: string) =>
  api.post<TransferState>(`/api/servers/${enc(id)}/transfer`, { node } satisfies ServerTransferBody);
