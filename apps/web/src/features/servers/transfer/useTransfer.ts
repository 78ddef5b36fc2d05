/**
 * One server's move between nodes as the Admin tab shows it: the live socket's `transfer-progress` /
 * `transfer-done` events, and `GET …/transfer` polled every 2 s while the socket is not open (every 10 s while it
 * is, since an event sent during a reconnect is never replayed). A move already running when the page opens
 * (another tab, a reload) is picked up from the same GET.
 */
import type {
  TransferDoneData,
  TransferError,
  TransferPhase,
  TransferState,
} from '@hearth/contract/transfer';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../api/errors';
import { serverKeys } from '../api';
import type { ServerLive } from '../useServerLive';
import { finished, startTransfer, transferQuery } from './api';

export interface TransferView {
  phase: TransferPhase;
  bytes: number;
  total: number;
  from: string;
  to: string;
  error: TransferError | null;
  /** The source folder that could not be deleted (the move itself succeeded). */
  leftover: string | null;
}

const POLL_CLOSED_MS = 2_000;
const POLL_OPEN_MS = 10_000;

const viewOf = (state: TransferState): TransferView => ({
  phase: state.phase,
  bytes: state.bytes,
  total: state.total,
  from: state.from,
  to: state.to,
  error: state.error,
  leftover: state.leftover ?? null,
});

/** A `transfer-done` event applied to what is shown: `node` is where the server is now. */
function applyDone(view: TransferView, done: TransferDoneData): TransferView {
  if (done.ok) return { ...view, phase: 'done', to: done.node, bytes: view.total, error: null };
  return { ...view, phase: 'failed', from: done.node, error: done.error ?? { code: 'ErrTransferFailed' } };
}

export function useTransfer(serverId: string, nodeId: string, live: ServerLive) {
  const queryClient = useQueryClient();
  const [view, setView] = useState<TransferView | null>(null);
  const watching = view !== null && !finished(view.phase);
  const interval = watching ? (live.connection === 'open' ? POLL_OPEN_MS : POLL_CLOSED_MS) : false;
  const polled = useQuery(transferQuery(serverId, interval));
  // Only a running move is picked up on arrival; an old finished one is history, not news.
  const seen = useRef(false);
  useEffect(() => {
    const state = polled.data;
    if (!state) return;
    const first = !seen.current;
    seen.current = true;
    if (first && finished(state.phase)) return;
    setView((current) => (current === null && !first ? current : viewOf(state)));
  }, [polled.data]);

  useEffect(
    () =>
      live.subscribeTransfer((event) => {
        setView((current) => {
          if (event.type === 'transfer-done') return current && applyDone(current, event.data);
          const base = current ?? { from: nodeId, to: '', error: null, leftover: null };
          return { ...base, ...event.data };
        });
      }),
    [live.subscribeTransfer, nodeId],
  );

  // The server's node (and with it its address and SFTP host) changed: the page reads it again.
  const phase = view?.phase;
  useEffect(() => {
    if (phase !== 'done' && phase !== 'failed') return;
    void queryClient.invalidateQueries({ queryKey: serverKeys.detail(serverId) });
    void queryClient.invalidateQueries({ queryKey: [...serverKeys.all, 'list'] });
  }, [phase, queryClient, serverId]);

  const start = useMutation({
    mutationFn: (target: string) => startTransfer(serverId, target),
    onMutate: (target) =>
      setView({
        phase: 'stopping',
        bytes: 0,
        total: 0,
        from: nodeId,
        to: target,
        error: null,
        leftover: null,
      }),
    onSuccess: (state) => setView(viewOf(state)),
    onError: (err, target) =>
      setView({
        phase: 'failed',
        bytes: 0,
        total: 0,
        from: nodeId,
        to: target,
        error: err instanceof ApiError && err.code ? { code: err.code, metadata: err.metadata } : null,
        leftover: null,
      }),
  });

  const reset = useCallback(() => setView(null), []);
  return { view, start: (target: string) => start.mutate(target), starting: start.isPending, reset };
}
