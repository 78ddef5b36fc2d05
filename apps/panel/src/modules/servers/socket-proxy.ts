/**
 * One browser socket relayed to the daemon's socket for the same server.
 * Every inbound frame is checked here against the caller's flags before it is forwarded (socket-permissions);
 * the daemon checks it again with the token's flags. Daemon tokens live 60 s and the daemon closes a socket
 * whose token expired (4001), so the relay re-reads the caller's access every `socketRefreshMs` (45 s) and swaps in
 * a fresh upstream socket before that happens; an unexpected 4001 reconnects at once. The browser sees one
 * uninterrupted socket. A browser that reads slower than its server prints is not buffered for in the panel:
 * past {@link PAUSE_BYTES} unsent the relay stops reading the daemon's socket, so the daemon's own per-subscriber
 * queue fills and drops the oldest output with its `dropped` count (docs/daemon.md § Console), which reaches the
 * browser once it catches up.
 */
import type { WebSocket } from 'ws';
import { AppError, isAppError } from '@hearth/contract';
import type { Identity, ServerAccess } from '../../app-types';
import type { NodeLink } from '../../nodes-link/node-link';
import { grantFor } from './servers.service';
import { checkInbound, samePerms } from './socket-permissions';
import { SOCKET_CLOSE } from './socket-registry';

const TOKEN_EXPIRED = 4001;
/** Socket messages that change the server, refused while it moves between nodes (as the proxy's writes are). */
const CHANGES: ReadonlySet<string> = new Set([
  'start',
  'stop',
  'kill',
  'restart',
  'install',
  'console',
  'file:create',
  'file:delete',
]);
/** Frames a browser may send before the daemon socket is open; beyond that they are refused. */
const MAX_QUEUED = 64;
/** Bytes relayed to the browser but not yet handed to its connection before the daemon socket is paused. */
export const PAUSE_BYTES = 1024 * 1024;
/** The daemon socket is read again once the browser's backlog is down to this. */
const RESUME_BYTES = 256 * 1024;

export interface RelayDeps {
  link: NodeLink;
  /** Re-reads the caller and their access (null: logged out or no access any more). */
  reauthorize: () => Promise<{ identity: Identity; access: ServerAccess } | null>;
  onEnd: () => void;
  /** A message passed the permission check and goes to the daemon (the activity log records it). */
  onAccepted?: (text: string, identity: Identity, access: ServerAccess) => void;
  /** Whether the server is being moved to another node: messages that change it are refused meanwhile. */
  moving?: (serverId: string) => boolean;
  log: { warn: (obj: object, msg: string) => void };
}

export class SocketRelay {
  private upstream: WebSocket | null = null;
  private readonly queue: string[] = [];
  private refreshTimer: NodeJS.Timeout | null = null;
  private ended = false;
  /** Relayed bytes whose write to the browser has not completed. */
  private unsentBytes = 0;
  /** The daemon socket paused for a slow browser, if any. */
  private paused: WebSocket | null = null;

  constructor(
    private readonly client: WebSocket,
    private identity: Identity,
    private access: ServerAccess,
    private readonly deps: RelayDeps,
  ) {
    client.on('message', (raw: Buffer, isBinary) => this.inbound(isBinary ? '' : raw.toString('utf8')));
    client.on('close', () => this.end());
    client.on('error', () => this.end());
  }

  async start(): Promise<void> {
    await this.connect();
    this.refreshTimer = setInterval(() => void this.refresh(), this.deps.link.timeouts.socketRefreshMs);
  }

  /** Closes the browser's socket (permission change, deletion) and the daemon's. */
  close(code: number, reason: string): void {
    if (this.client.readyState === this.client.OPEN) this.client.close(code, reason);
    this.end();
  }

  private sendError(err: unknown): void {
    const known = isAppError(err) ? err : new AppError('ErrGeneric');
    if (this.client.readyState === this.client.OPEN) {
      this.client.send(JSON.stringify({ type: 'error', data: known.toBody() }));
    }
  }

  /** A message made by the panel itself (a transfer's progress), sent as JSON. */
  notify(message: object): void {
    if (this.client.readyState === this.client.OPEN) this.client.send(JSON.stringify(message));
  }

  /** The server moved to another node: the relay re-reads its access (the new node) and reopens upstream. */
  reconnect(): Promise<void> {
    return this.refresh();
  }

  private inbound(text: string): void {
    try {
      const key = checkInbound(text, this.access);
      if (CHANGES.has(key) && this.deps.moving?.(this.access.serverId))
        throw new AppError('ErrTransferInProgress');
    } catch (err) {
      return this.sendError(err);
    }
    this.deps.onAccepted?.(text, this.identity, this.access);
    const up = this.upstream;
    if (up && up.readyState === up.OPEN) return up.send(text);
    if (this.queue.length >= MAX_QUEUED)
      return this.sendError(new AppError('ErrRateLimited', { retryAfter: 1 }));
    this.queue.push(text);
  }

  /** Opens a daemon socket; resolves once it is open (and is then the one in use). */
  private async connect(): Promise<void> {
    const up = await this.deps.link.socket(
      this.access.nodeId,
      grantFor(this.identity, this.access),
      this.access.serverId,
    );
    await new Promise<void>((resolve, reject) => {
      up.once('open', resolve);
      up.once('unexpected-response', (_req, res) => {
        // The daemon's own cap (socket.maxPerServer) is named as such, not hidden behind ErrSocketFailed.
        const status = res.statusCode ?? 0;
        reject(status === 429 ? new AppError('ErrSocketLimit') : new AppError('ErrSocketFailed', { status }));
        up.terminate();
      });
      up.once('error', reject);
    });
    if (this.ended) return up.close(1000);
    const previous = this.upstream;
    this.upstream = up;
    up.on('error', (err) => this.deps.log.warn({ err }, 'daemon socket error'));
    up.on('message', (data: Buffer, isBinary) => this.relay(up, data, isBinary));
    up.on('close', (code) => void this.upstreamClosed(up, code));
    if (this.paused === previous) this.paused = null;
    previous?.close(1000, 'token refreshed');
    for (const text of this.queue.splice(0)) up.send(text);
  }

  /** Relayed as received: no UTF-8 decode and re-encode of every console frame (bench:console proxy). */
  private relay(up: WebSocket, data: Buffer, isBinary: boolean): void {
    if (this.upstream !== up || this.client.readyState !== this.client.OPEN) return;
    const size = data.length;
    this.unsentBytes += size;
    this.client.send(data, { binary: isBinary }, () => {
      this.unsentBytes -= size;
      if (this.paused && this.unsentBytes <= RESUME_BYTES) {
        this.paused.resume();
        this.paused = null;
      }
    });
    if (!this.paused && this.unsentBytes > PAUSE_BYTES) {
      up.pause();
      this.paused = up;
    }
  }

  private async upstreamClosed(up: WebSocket, code: number): Promise<void> {
    if (this.ended || this.upstream !== up) return;
    this.upstream = null;
    if (code === TOKEN_EXPIRED) return this.refresh();
    this.close(SOCKET_CLOSE.nodeLost, 'node connection lost');
  }

  /** Re-reads access (closing on any change), then swaps in a daemon socket with a fresh token. */
  private async refresh(): Promise<void> {
    if (this.ended) return;
    try {
      const now = await this.deps.reauthorize();
      if (!now || !samePerms(now.access.perms, this.access.perms)) {
        return this.close(SOCKET_CLOSE.permissionsChanged, 'permissions changed');
      }
      this.identity = now.identity;
      this.access = now.access;
      await this.connect();
    } catch (err) {
      this.deps.log.warn({ err }, 'daemon socket refresh failed');
      if (!this.upstream) this.close(SOCKET_CLOSE.nodeLost, 'node connection lost');
    }
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.upstream?.close(1000);
    this.upstream = null;
    this.deps.onEnd();
  }
}
