/**
 * The live link of one server page: status, stats, console events and actions. The page calls
 * `useServerLive` once and hands the result to the header, controls and every tab.
 *
 * This is the contract between the server page and the live socket (`api/live-socket.ts`, wrapped by
 * `live/socket-live.ts`; while it is closed the same messages go over HTTP, `api/live-fallback.ts`):
 * - `status`: 'unknown' until the first status arrives, then 'online' (running) or 'offline'.
 * - `installing`: the daemon is running the install processors.
 * - `stats`: the latest `{cpu, memory}` (after a `stat` request), else null.
 * - `connection`: 'connecting' | 'open' | 'closed' for the socket.
 * - `failed`: reconnecting gave up; the page shows the warning banner while true.
 * - `failedCode`: why, as a catalogued code (`ErrSocketLimit` when the panel refused one more socket, else
 *   `ErrSocketFailed`); the banner and the toast show its translation.
 * - `subscribeConsole(fn)`: console events (`{logs, epoch}`) after the call; returns the unsubscribe.
 * - `subscribeFiles(fn)`: `file-list` answers (`{files, path, error}`) to `file` messages; returns the unsubscribe.
 * - `subscribeBackups(fn)`: `backup-progress` / `backup-done` events (docs/backups.md § Progress); returns the
 *   unsubscribe.
 * - `subscribeTransfer(fn)`: `transfer-progress` / `transfer-done` events the panel injects while the server moves
 *   between nodes (docs/web.md § Moving a server); returns the unsubscribe.
 * - `send(message)`: start, stop, kill, install, stat, status, replay {since}, console {command}. The promise
 *   settles when the message is sent (socket) or answered (HTTP); failures are toasted by the hook.
 *   Also file {action: 'get', path}, answered by a `file-list`.
 */
import type { ConsoleEventData, ErrorCode, FileList, StatsResponse } from '@hearth/contract';
import type { BackupDoneEvent, BackupProgressEvent } from '@hearth/contract/backup-events';
import type { TransferDoneEvent, TransferProgressEvent } from '@hearth/contract/transfer';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { notifyError } from '../../api/notify';
import { createSocketLive } from './live/socket-live';

export type ServerLiveAction =
  | { type: 'start' | 'stop' | 'kill' | 'install' | 'stat' | 'status' }
  | { type: 'replay'; data: { since: number } }
  | { type: 'console'; data: { command: string } }
  | { type: 'file'; data: { action: 'get'; path: string } };

export type FileListListener = (list: FileList) => void;
export type BackupEventListener = (event: BackupProgressEvent | BackupDoneEvent) => void;
export type TransferEventListener = (event: TransferProgressEvent | TransferDoneEvent) => void;

export interface ServerLiveState {
  status: 'unknown' | 'online' | 'offline';
  installing: boolean;
  /** Installed once, or nothing to install (docs/daemon.md § Installed mark); an older daemon: true. */
  installed: boolean;
  stats: StatsResponse | null;
  connection: 'connecting' | 'open' | 'closed';
  failed: boolean;
  failedCode?: ErrorCode;
}

export interface ServerLive extends ServerLiveState {
  subscribeConsole: (listener: (event: ConsoleEventData) => void) => () => void;
  subscribeFiles: (listener: FileListListener) => () => void;
  subscribeBackups: (listener: BackupEventListener) => () => void;
  subscribeTransfer: (listener: TransferEventListener) => () => void;
  send: (message: ServerLiveAction) => Promise<void>;
}

/** A live source outside React: a state snapshot, change notification, console fan-out and send. */
export interface LiveSource {
  getState: () => ServerLiveState;
  subscribe: (onChange: () => void) => () => void;
  subscribeConsole: (listener: (event: ConsoleEventData) => void) => () => void;
  subscribeFiles: (listener: FileListListener) => () => void;
  subscribeBackups: (listener: BackupEventListener) => () => void;
  subscribeTransfer: (listener: TransferEventListener) => () => void;
  send: (message: ServerLiveAction) => Promise<void>;
  close: () => void;
}

const createLiveSource: (serverId: string) => LiveSource = createSocketLive;

const INITIAL: ServerLiveState = {
  status: 'unknown',
  installing: false,
  installed: true,
  stats: null,
  connection: 'connecting',
  failed: false,
};
const idleSubscribe = () => () => undefined;
const idleState = () => INITIAL;
const noConsole = () => () => undefined;
const noFiles = () => () => undefined;
const noBackups = () => () => undefined;
const noTransfer = () => () => undefined;

/**
 * `nodeId`: the node the server is on. A move to another node ends the old node's socket (the server is gone
 * there), so a new node id opens a new link to the new node.
 */
export function useServerLive(serverId: string, nodeId?: string): ServerLive {
  const [source, setSource] = useState<LiveSource | null>(null);
  useEffect(() => {
    const next = createLiveSource(serverId);
    setSource(next);
    return () => next.close();
  }, [serverId, nodeId]);
  const state = useSyncExternalStore(source?.subscribe ?? idleSubscribe, source?.getState ?? idleState);
  const send = useCallback(
    async (message: ServerLiveAction) => {
      if (!source) return;
      try {
        await source.send(message);
      } catch (err) {
        notifyError(err);
        throw err;
      }
    },
    [source],
  );
  return {
    ...state,
    subscribeConsole: source?.subscribeConsole ?? noConsole,
    subscribeFiles: source?.subscribeFiles ?? noFiles,
    subscribeBackups: source?.subscribeBackups ?? noBackups,
    subscribeTransfer: source?.subscribeTransfer ?? noTransfer,
    send,
  };
}
