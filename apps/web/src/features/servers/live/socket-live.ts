/**
 * The socket-backed `LiveSource` behind `useServerLive`: the live socket with its HTTP fallback.
 * It keeps the output seen since the page opened, so a console tab opened later starts with the history.
 */
import type { ConsoleEventData, ServerMessage } from '@hearth/contract';
import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import { ApiError } from '../../../api/errors';
import { liveHttp } from '../../../api/live-http';
import { LiveSocket, type LiveSocketOptions } from '../../../api/live-socket';
import { notifyError } from '../../../api/notify';
import {
  CONSOLE_BUFFER_LIMIT,
  CONSOLE_BUFFER_TRIM_TO,
  lineUnits,
  trimLines,
} from '../console/console-buffer';
import type {
  BackupEventListener,
  FileListListener,
  LiveSource,
  ServerLiveState,
  TransferEventListener,
} from '../useServerLive';

type ErrorData = Extract<ServerMessage, { type: 'error' }>['data'];

/** A daemon `error` event gets the same toast as an HTTP error (catalogue text or Unknown error). */
function reportSocketError(data: ErrorData, serverId: string): void {
  const { code, msg, metadata } = data.error;
  const request = { url: `/proxy/daemon/socket/${serverId}`, method: 'WS', headers: {} };
  notifyError(new ApiError(0, code, (metadata ?? {}) as ApiError['metadata'], request, msg));
}

/** The output history, trimmed like the console so it stays bounded under a flood. */
class History {
  chunks: string[] = [];
  private units = 0;

  add(text: string): void {
    this.chunks.push(text);
    this.units += lineUnits(text);
    if (this.units <= CONSOLE_BUFFER_LIMIT) return;
    const { dropped, units } = trimLines(this.chunks, this.units, CONSOLE_BUFFER_TRIM_TO);
    this.chunks = this.chunks.slice(dropped);
    this.units = units;
  }
}

export function createSocketLive(
  serverId: string,
  overrides: Partial<Omit<LiveSocketOptions, 'serverId'>> = {},
): LiveSource {
  let state: ServerLiveState = {
    status: 'unknown',
    installing: false,
    installed: true,
    stats: null,
    connection: 'connecting',
    failed: false,
  };
  const watchers = new Set<() => void>();
  const consoleListeners = new Set<(event: ConsoleEventData) => void>();
  const fileListeners = new Set<FileListListener>();
  const backupListeners = new Set<BackupEventListener>();
  const transferListeners = new Set<TransferEventListener>();
  const history = new History();
  let lastEpoch = 0;
  const set = (patch: Partial<ServerLiveState>) => {
    state = { ...state, ...patch };
    watchers.forEach((w) => w());
  };

  const receive = (message: ServerMessage) => {
    switch (message.type) {
      case 'console': {
        const text = message.data.logs.join('');
        if (text === '') return;
        lastEpoch = Math.max(lastEpoch, message.data.epoch);
        history.add(text);
        return consoleListeners.forEach((l) => l(message.data));
      }
      case 'status':
        return set({
          status: message.data.running ? 'online' : 'offline',
          installing: message.data.installing,
          installed: message.data.installed ?? true,
        });
      case 'stat':
        return set({ stats: message.data });
      case 'error':
        return reportSocketError(message.data, serverId);
      case 'file-list':
        return fileListeners.forEach((l) => l(message.data));
      case 'pong':
        return;
      case 'backup-progress':
      case 'backup-done':
        // The daemon sends them only to sockets whose token holds viewServerBackups (docs/backups.md § Progress).
        return backupListeners.forEach((l) => l(message));
      case 'transfer-progress':
      case 'transfer-done':
        return transferListeners.forEach((l) => l(message));
    }
  };

  // The server was deleted (here or elsewhere): the link ends instead of polling and toasting "Server not found"
  // for a page that is going away; the page itself shows the not-found state from its detail query.
  let gone = false;
  const report = (err: unknown) => {
    if (err instanceof ApiError && err.code === 'ErrServerNotFound') {
      if (!gone) socket.close();
      gone = true;
      return;
    }
    if (!gone) notifyError(err);
  };

  const socket = new LiveSocket(
    { http: liveHttp, ...overrides, serverId },
    {
      message: receive,
      state: (connection) => {
        set({ connection });
        // Each (re)open, and each close (then over HTTP, not waiting for the first 5 s poll), asks for the
        // running flag and the output not seen yet (all of it the first time).
        if (connection === 'connecting') return;
        if (gone) return;
        socket.send({ type: 'status' }).catch(report);
        socket.send({ type: 'replay', data: { since: lastEpoch } }).catch(report);
      },
      failed: (failed, code) => {
        // The panel's reason when it gave one (ErrSocketLimit: too many sockets), else the generic warning.
        const failedCode = failed ? (code ?? 'ErrSocketFailed') : undefined;
        set({ failed, failedCode });
        if (failedCode) notifications.show({ color: 'yellow', message: i18next.t(`errors.${failedCode}`) });
      },
      httpError: (err) => {
        // A poll failing every 5 s while the node is down would flood toasts: the status goes unknown instead.
        if (err instanceof ApiError && err.status >= 500) set({ status: 'unknown' });
        else report(err);
      },
    },
  );
  socket.connect();

  return {
    getState: () => state,
    subscribe: (w) => {
      watchers.add(w);
      return () => watchers.delete(w);
    },
    subscribeConsole: (listener) => {
      consoleListeners.add(listener);
      if (history.chunks.length > 0) listener({ logs: history.chunks.slice(), epoch: lastEpoch });
      return () => consoleListeners.delete(listener);
    },
    subscribeFiles: (listener) => {
      fileListeners.add(listener);
      return () => fileListeners.delete(listener);
    },
    subscribeBackups: (listener) => {
      backupListeners.add(listener);
      return () => backupListeners.delete(listener);
    },
    subscribeTransfer: (listener) => {
      transferListeners.add(listener);
      return () => transferListeners.delete(listener);
    },
    send: (message) => socket.send(message),
    close: () => socket.close(),
  };
}
