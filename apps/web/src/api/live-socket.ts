/**
 * The server live socket: `/proxy/daemon/socket/{id}` with `{type, data}` messages.
 * Pure TypeScript (no React, no DOM globals unless defaulted) so the reconnect, queue and HTTP-fallback rules
 * are unit-tested in node with a real `ws` server and a fake clock.
 */
import { isErrorCode, type ErrorCode, type ServerMessage } from '@hearth/contract';
import { overHttp } from './live-fallback';

export type LiveState = 'connecting' | 'open' | 'closed';

/**
 * What the client sends; `data` only for replay, console and file. The file manager only lists over the socket
 * (`get`): the daemon's answers carry no request id, so creates and deletes go over HTTP where each gets its own
 * reply (success toast, catalogued error) and the folder is then listed again.
 */
export type LiveMessage =
  | { type: 'start' | 'stop' | 'kill' | 'install' | 'stat' | 'status' }
  | { type: 'replay'; data: { since: number } }
  | { type: 'console'; data: { command: string } }
  | { type: 'file'; data: { action: 'get'; path: string } };

/** The subset of the browser WebSocket this class uses (the `ws` package's WebSocket fits it too). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type SocketFactory = (url: string) => SocketLike;

export interface Clock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** The HTTP calls used while the socket is down; paths are absolute (`/proxy/daemon/server/…`). */
export interface LiveHttp {
  get(path: string): Promise<unknown>;
  /** `body` is sent as `text/plain` (the console command), absent for power actions. */
  post(path: string, body?: string): Promise<unknown>;
}

export const RECONNECT_BASE_MS = 500;
export const RECONNECT_STEP_MS = 500;
export const MAX_FAILED_ATTEMPTS = 5;
export const FAILURE_RESET_MS = 30_000;
export const REPLAY_POLL_MS = 5000;
const WS_OPEN = 1;

/**
 * Close reasons that reconnecting at once would only repeat: too many sockets (the panel's per-user or
 * per-server cap). The client gives up at once and shows why; the 30 s failure reset tries again later.
 */
const NO_RETRY: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['ErrSocketLimit']);

/** The catalogued code the panel put in a close frame's reason (e.g. 4429 `ErrSocketLimit`), if any. */
function closeCodeOf(event: unknown): ErrorCode | undefined {
  const reason = (event as { reason?: unknown } | null)?.reason;
  return isErrorCode(reason) ? reason : undefined;
}

export interface LiveSocketOptions {
  serverId: string;
  http: LiveHttp;
  /** Page location: picks ws:// or wss:// and the host. Defaults to `window.location`. */
  location?: { protocol: string; host: string };
  createSocket?: SocketFactory;
  clock?: Clock;
}

export interface LiveListeners {
  message?: (message: ServerMessage) => void;
  state?: (state: LiveState) => void;
  /**
   * Reconnecting gave up (warning toast + banner); `false` again once the socket reopens. `code` is the
   * catalogued reason the panel closed the socket with, when it gave one that retrying cannot fix.
   */
  failed?: (failed: boolean, code?: ErrorCode) => void;
  /** An HTTP fallback call failed. */
  httpError?: (err: unknown) => void;
}

export function socketUrl(location: { protocol: string; host: string }, serverId: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/proxy/daemon/socket/${encodeURIComponent(serverId)}`;
}

const realClock: Clock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

export class LiveSocket {
  private socket: SocketLike | null = null;
  private stateValue: LiveState = 'closed';
  private queue: LiveMessage[] = [];
  private failures = 0;
  private gaveUp = false;
  private disposed = false;
  private reconnectTimer: unknown = null;
  private resetTimer: unknown = null;
  private pollTimer: unknown = null;
  /** Newest console epoch seen (socket or HTTP), so replays never repeat or miss output. */
  lastEpoch = 0;
  private replaying: Promise<void> | null = null;
  private replayAgain = false;
  private readonly url: string;
  private readonly createSocket: SocketFactory;
  private readonly clock: Clock;

  constructor(
    private readonly options: LiveSocketOptions,
    private readonly listeners: LiveListeners = {},
  ) {
    this.url = socketUrl(options.location ?? window.location, options.serverId);
    this.createSocket = options.createSocket ?? ((url) => new WebSocket(url) as unknown as SocketLike);
    this.clock = options.clock ?? realClock;
  }

  get state(): LiveState {
    return this.stateValue;
  }

  get failed(): boolean {
    return this.gaveUp;
  }

  connect(): void {
    if (this.disposed) return;
    this.setState('connecting');
    const socket = this.createSocket(this.url);
    this.socket = socket;
    socket.onopen = () => this.handleOpen(socket);
    socket.onclose = (event) => this.handleClose(socket, closeCodeOf(event));
    // The close event follows an error; the close handler does the work.
    socket.onerror = () => undefined;
    socket.onmessage = (event) => this.handleMessage(event.data);
  }

  /** Ends the socket on purpose (page left): no reconnect, no polling, no more events. */
  close(): void {
    this.disposed = true;
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    this.queue = [];
    if (socket) socket.close(1000, 'closed by client');
    this.stateValue = 'closed';
  }

  /**
   * Over the socket when open; queued while connecting; over HTTP while closed or closing. The promise settles
   * when the message is handed to the socket or queued, or when the HTTP call is answered (rejecting if it
   * failed, so the caller can report it).
   */
  send(message: LiveMessage): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.stateValue === 'connecting') {
      this.queue.push(message);
      return Promise.resolve();
    }
    if (this.stateValue === 'open' && this.socket?.readyState === WS_OPEN) {
      this.socket.send(JSON.stringify(message));
      return Promise.resolve();
    }
    return this.callHttp(message);
  }

  private setState(state: LiveState): void {
    if (this.stateValue === state) return;
    this.stateValue = state;
    this.listeners.state?.(state);
  }

  private handleOpen(socket: SocketLike): void {
    if (socket !== this.socket) return;
    this.stopPolling();
    this.setState('open');
    if (this.gaveUp) {
      this.gaveUp = false;
      this.listeners.failed?.(false);
    }
    const queued = this.queue.splice(0);
    for (const message of queued) socket.send(JSON.stringify(message));
  }

  private handleClose(socket: SocketLike, code?: ErrorCode): void {
    if (socket !== this.socket || this.disposed) return;
    this.socket = null;
    this.setState('closed');
    // Whatever waited for the socket goes over HTTP now rather than waiting for a reconnect that may not come.
    for (const message of this.queue.splice(0)) void this.sendOverHttp(message);
    this.startPolling();
    this.armFailureReset();
    if (this.failures >= MAX_FAILED_ATTEMPTS || (code !== undefined && NO_RETRY.has(code))) {
      this.giveUp(code);
      return;
    }
    const delay = RECONNECT_BASE_MS + RECONNECT_STEP_MS * this.failures;
    this.failures += 1;
    this.reconnectTimer = this.clock.setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  private giveUp(code?: ErrorCode): void {
    if (this.gaveUp) return;
    this.gaveUp = true;
    this.listeners.failed?.(true, code);
  }

  /**
   * The failure counter resets 30 s after a close. After giving up, that reset also starts a fresh
   * round of attempts, so a socket blocked for a while comes back without a page reload.
   */
  private armFailureReset(): void {
    if (this.resetTimer !== null) this.clock.clearTimeout(this.resetTimer);
    this.resetTimer = this.clock.setTimeout(() => {
      this.resetTimer = null;
      this.failures = 0;
      if (this.gaveUp && this.stateValue === 'closed' && this.reconnectTimer === null) this.connect();
    }, FAILURE_RESET_MS);
  }

  private startPolling(): void {
    if (this.pollTimer !== null) return;
    this.pollTimer = this.clock.setInterval(() => this.poll(), REPLAY_POLL_MS);
  }

  private stopPolling(): void {
    if (this.pollTimer === null) return;
    this.clock.clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  /** Catches up on output (and the running flag, which the socket would otherwise push). */
  private poll(): void {
    if (this.stateValue === 'open') return;
    void this.sendOverHttp({ type: 'replay', data: { since: this.lastEpoch } });
    void this.sendOverHttp({ type: 'status' });
  }

  private clearTimers(): void {
    if (this.reconnectTimer !== null) this.clock.clearTimeout(this.reconnectTimer);
    if (this.resetTimer !== null) this.clock.clearTimeout(this.resetTimer);
    this.reconnectTimer = null;
    this.resetTimer = null;
    this.stopPolling();
  }

  private handleMessage(raw: unknown): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(raw));
    } catch {
      return; // not ours: the daemon only sends JSON envelopes
    }
    if (typeof parsed !== 'object' || parsed === null || !('type' in parsed)) return;
    this.emit(parsed as ServerMessage);
  }

  private emit(message: ServerMessage): void {
    if (this.disposed) return;
    // An empty answer carries the daemon's "now", which a chunk stamped in that same millisecond could equal.
    const { type, data } = message;
    if (type === 'console' && data.logs.length > 0 && data.epoch > this.lastEpoch)
      this.lastEpoch = data.epoch;
    this.listeners.message?.(message);
  }

  private async callHttp(message: LiveMessage): Promise<void> {
    if (message.type === 'replay') return this.replayOverHttp(message.data.since);
    const answer = await overHttp(this.options.http, this.options.serverId, message);
    if (answer) this.emit(answer);
  }

  /**
   * One HTTP replay at a time, each from the newest epoch seen when it is sent. Replays overlap when queued
   * messages, polls and reconnect attempts pile up on a slow link; two in flight from the same epoch would
   * show the same output twice. A replay asked for while one runs is folded into one more afterwards.
   */
  private replayOverHttp(requested: number): Promise<void> {
    if (this.replaying) {
      this.replayAgain = true;
      return this.replaying;
    }
    const run = async () => {
      try {
        do {
          this.replayAgain = false;
          const since = Math.max(requested, this.lastEpoch);
          const answer = await overHttp(this.options.http, this.options.serverId, {
            type: 'replay',
            data: { since },
          });
          if (answer) this.emit(answer);
        } while (this.replayAgain && !this.disposed);
      } finally {
        this.replaying = null;
      }
    };
    this.replaying = run();
    return this.replaying;
  }

  /** For messages nobody awaits (flushed queue, polls): failures go to the httpError listener. */
  private async sendOverHttp(message: LiveMessage): Promise<void> {
    try {
      await this.callHttp(message);
    } catch (err) {
      if (!this.disposed) this.listeners.httpError?.(err);
    }
  }
}
