/**
 * The folder the file manager shows, listed over the live socket:
 * `open(path)` sends `file {action: 'get', path}` and sets the loading flag; the list (and the current path) is
 * replaced when the matching `file-list` arrives. While the socket is closed the live source answers the same
 * message over HTTP. A `file-list` carrying an error clears the loading flag, keeps the folder shown and toasts.
 */
import { errorCatalogue, errorCodes, type FileList } from '@hearth/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../api/errors';
import { notifyError } from '../../../api/notify';
import type { ServerLive } from '../useServerLive';
import { normalizePath } from './file-model';

type FolderLive = Pick<ServerLive, 'send' | 'subscribeFiles' | 'connection'>;

/**
 * The daemon puts its English catalogue text in `error` (no code): the matching code gets the translated
 * toast; anything else is 'Unknown error' with the details dump.
 */
export function reportFileListError(error: string, serverId: string): void {
  const code = errorCodes.find((c) => errorCatalogue[c].message === error);
  const request = { url: `/proxy/daemon/socket/${serverId}`, method: 'WS', headers: {} };
  notifyError(new ApiError(0, code, {}, request, error));
}

export interface Folder {
  /** The folder shown (the one the last good listing was for). */
  path: string;
  list: FileList | null;
  loading: boolean;
  open: (path: string) => void;
  refresh: () => void;
}

export function useFolder(live: FolderLive, serverId: string): Folder {
  const { send, subscribeFiles, connection } = live;
  const [list, setList] = useState<FileList | null>(null);
  const [loading, setLoading] = useState(true);
  const wanted = useRef('');
  const shown = useRef('');
  const loadingRef = useRef(true);
  const setBusy = (busy: boolean) => {
    loadingRef.current = busy;
    setLoading(busy);
  };

  useEffect(
    () =>
      subscribeFiles((answer) => {
        if (answer.error !== undefined) {
          setBusy(false);
          return reportFileListError(answer.error, serverId);
        }
        // An answer for a folder the user already left (a quicker click followed) is dropped.
        if (normalizePath(answer.path) !== wanted.current) return;
        shown.current = wanted.current;
        setList(answer);
        setBusy(false);
      }),
    [subscribeFiles, serverId],
  );

  const request = useCallback(() => {
    setBusy(true);
    // A failed HTTP fallback is toasted by the live hook; it only has to stop the loading flag here.
    send({ type: 'file', data: { action: 'get', path: wanted.current } }).catch(() => setBusy(false));
  }, [send]);

  // `send` changes when the live source appears; asking again then covers a request made before it existed.
  useEffect(request, [request]);
  // A request sent just before the socket dropped is never answered: ask again once it is open or closed.
  const lastConnection = useRef(connection);
  useEffect(() => {
    if (connection === lastConnection.current) return;
    lastConnection.current = connection;
    if (loadingRef.current && connection !== 'connecting') request();
  }, [connection, request]);

  const open = useCallback(
    (path: string) => {
      wanted.current = normalizePath(path);
      request();
    },
    [request],
  );
  const refresh = useCallback(() => {
    wanted.current = shown.current;
    request();
  }, [request]);

  return { path: shown.current, list, loading, open, refresh };
}
