/**
 * The live link of one server page (SPEC §4): status, stats, console events and actions. The page calls
 * `useServerLive` once and hands the result to the header, controls and every tab.
 *
 * This is the contract between the server page and the live socket (`api/live-socket.ts`). The implementation
 * here polls over HTTP; the socket-backed one replaces `createHttpLive` and keeps this interface:
 * - `status`: 'unknown' until the first status arrives, then 'online' (running) or 'offline'.
 * - `installing`: the daemon is running the install processors.
 * - `stats`: the latest `{cpu, memory}` (after a `stat` request), else null.
 * - `connection`: 'connecting' | 'open' | 'closed' for the socket; 'polling' for this HTTP implementation.
 * - `failed`: reconnecting gave up; the page shows the warning banner while true.
 * - `subscribeConsole(fn)`: console events (`{logs, epoch}`) after the call; returns the unsubscribe.
 * - `subscribeFiles(fn)`: `file-list` answers (`{files, path, error}`) to `file` messages; returns the unsubscribe.
 * - `send(message)`: start, stop, kill, install, stat, status, replay {since}, console {command}. The promise
 *   settles when the message is sent (socket) or answered (HTTP); failures are toasted by the hook.
 *   Also file {action: 'get', path}, answered by a `file-list`.
 */
import type { ConsoleEventData, FileList, StatsResponse, StatusResponse } from '@hearth/contract';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { api } from '../../api/client';
import { notifyError } from '../../api/notify';
import { createSocketLive } from './live/socket-live';

export type ServerLiveAction =
  | { type: 'start' | 'stop' | 'kill' | 'install' | 'stat' | 'status' }
  | { type: 'replay'; data: { since: number } }
  | { type: 'console'; data: { command: string } }
  | { type: 'file'; data: { action: 'get'; path: string } };

export type FileListListener = (list: FileList) => void;

export interface ServerLiveState {
  status: 'unknown' | 'online' | 'offline';
  installing: boolean;
  stats: StatsResponse | null;
  connection: 'connecting' | 'open' | 'closed' | 'polling';
  failed: boolean;
}

export interface ServerLive extends ServerLiveState {
  subscribeConsole: (listener: (event: ConsoleEventData) => void) => () => void;
  subscribeFiles: (listener: FileListListener) => () => void;
  send: (message: ServerLiveAction) => Promise<void>;
}

/** A live source outside React: a state snapshot, change notification, console fan-out and send. */
export interface LiveSource {
  getState: () => ServerLiveState;
  subscribe: (onChange: () => void) => () => void;
  subscribeConsole: (listener: (event: ConsoleEventData) => void) => () => void;
  subscribeFiles: (listener: FileListListener) => () => void;
  send: (message: ServerLiveAction) => Promise<void>;
  close: () => void;
}

/** How often the HTTP implementation asks for the status. */
export const STATUS_POLL_MS = 3000;
/** How often it asks for new console output while someone listens (SPEC §9 replay poll). */
export const CONSOLE_POLL_MS = 1000;

const INITIAL_POLLING: ServerLiveState = {
  status: 'unknown',
  installing: false,
  stats: null,
  connection: 'polling',
  failed: false,
};

/** Polls status (and console output while subscribed) over the daemon proxy; actions are HTTP calls. */
export function createHttpLive(serverId: string): LiveSource {
  const base = `/proxy/daemon/server/${encodeURIComponent(serverId)}`;
  let state: ServerLiveState = { ...INITIAL_POLLING };
  const watchers = new Set<() => void>();
  const consoleListeners = new Set<(event: ConsoleEventData) => void>();
  const fileListeners = new Set<FileListListener>();
  let since = 0;
  const set = (patch: Partial<ServerLiveState>) => {
    state = { ...state, ...patch };
    watchers.forEach((w) => w());
  };
  const emitConsole = (logs: string, epoch: number) => {
    since = epoch;
    if (logs !== '') consoleListeners.forEach((l) => l({ logs: [logs], epoch }));
  };
  const send = async (message: ServerLiveAction): Promise<void> => {
    switch (message.type) {
      case 'status': {
        const s = await api.get<StatusResponse>(`${base}/status`);
        return set({ status: s.running ? 'online' : 'offline', installing: s.installing === true });
      }
      case 'stat':
        return set({ stats: await api.get<StatsResponse>(`${base}/stats`) });
      case 'replay': {
        const c = await api.get<{ logs: string; epoch: number }>(
          `${base}/console?time=${message.data.since}`,
        );
        return emitConsole(c.logs, c.epoch);
      }
      case 'console':
        return api.post<void>(`${base}/console`, { command: message.data.command });
      case 'file': {
        const list = await api.get<FileList>(
          `${base}/file/${message.data.path.split('/').map(encodeURIComponent).join('/')}`,
        );
        return fileListeners.forEach((l) => l(list));
      }
      case 'start':
      case 'stop':
      case 'kill':
      case 'install':
        await api.post<void>(`${base}/${message.type}`);
        return send({ type: 'status' });
    }
  };
  const quiet = (p: Promise<void>) => p.catch(() => set({ status: 'unknown' }));
  void quiet(send({ type: 'status' }));
  const statusTimer = setInterval(() => void quiet(send({ type: 'status' })), STATUS_POLL_MS);
  const consoleTimer = setInterval(() => {
    if (consoleListeners.size > 0) void send({ type: 'replay', data: { since } }).catch(() => undefined);
  }, CONSOLE_POLL_MS);
  return {
    getState: () => state,
    subscribe: (w) => {
      watchers.add(w);
      return () => watchers.delete(w);
    },
    subscribeConsole: (l) => {
      consoleListeners.add(l);
      return () => consoleListeners.delete(l);
    },
    subscribeFiles: (l) => {
      fileListeners.add(l);
      return () => fileListeners.delete(l);
    },
    send,
    close: () => {
      clearInterval(statusTimer);
      clearInterval(consoleTimer);
    },
  };
}

/** The implementation the page uses: the socket-backed source replaces this one line. */
const createLiveSource: (serverId: string) => LiveSource = createSocketLive;

const INITIAL: ServerLiveState = {
  status: 'unknown',
  installing: false,
  stats: null,
  connection: 'connecting',
  failed: false,
};
const idleSubscribe = () => () => undefined;
const idleState = () => INITIAL;
const noConsole = () => () => undefined;
const noFiles = () => () => undefined;

export function useServerLive(serverId: string): ServerLive {
  const [source, setSource] = useState<LiveSource | null>(null);
  useEffect(() => {
    const next = createLiveSource(serverId);
    setSource(next);
    return () => next.close();
  }, [serverId]);
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
    send,
  };
}
