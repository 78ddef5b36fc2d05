/**
 * One server's move between nodes as the Admin tab shows it: the live socket's `transfer-progress` /
 * `transfer-done` events, and `GET …/transfer` polled (model.ts `pollInterval`). A move already running when the
 * page opens (another tab, a reload) is picked up from the same GET.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../api/errors';
import { serverKeys } from '../api';
import type { ServerLive } from '../useServerLive';
import { startTransfer, transferQuery } from './api';
import {
  applyDone,
  applyPolled,
  applyProgress,
  pollInterval,
  refused,
  viewOf,
  type TransferView,
} from './model';

export type { TransferView } from './model';

export function useTransfer(serverId: string, nodeId: string, live: ServerLive) {
  const queryClient = useQueryClient();
  const [view, setView] = useState<TransferView | null>(null);
  const polled = useQuery(transferQuery(serverId, pollInterval(view, live.connection)));
  const seen = useRef(false);
  useEffect(() => {
    const state = polled.data;
    if (!state) return;
    const first = !seen.current;
    seen.current = true;
    setView((current) => applyPolled(current, state, first));
  }, [polled.data]);

  useEffect(
    () =>
      live.subscribeTransfer((event) =>
        setView((current) =>
          event.type === 'transfer-done'
            ? applyDone(current, event.data)
            : applyProgress(current, event.data, nodeId),
        ),
      ),
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
      setView(
        refused(
          nodeId,
          target,
          err instanceof ApiError && err.code ? { code: err.code, metadata: err.metadata } : null,
        ),
      ),
  });

  const reset = useCallback(() => setView(null), []);
  return { view, start: (target: string) => start.mutate(target), starting: start.isPending, reset };
}
