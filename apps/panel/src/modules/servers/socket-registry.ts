/**
 * The open proxied sockets of this panel process, keyed by server and user, so that a change of a user's
 * permissions on a server (or the server's deletion) closes their sockets at once.
 *
 * Limitation: the registry is in-process. With several panel processes behind a load balancer only the
 * process that handled the change closes its sockets; the others notice at the next token refresh (every
 * 45 s each proxied socket re-reads the caller's access and closes on a change), so revocation is bounded by
 * that interval there.
 *
 * Caps (docs/configuration.md `web.socketsPerServer`, `web.socketsPerUser`): the daemon allows
 * `socket.maxPerServer` (20) sockets per server and refuses the next one, so one user opening many tabs or
 * scripted sockets could starve everyone else, the owner included (each proxied socket also briefly holds a
 * second daemon socket while it swaps tokens). The panel counts first, below the daemon's cap, and closes the
 * extra socket with 4429 `ErrSocketLimit`, which the web app shows instead of retrying.
 */
import { AppError } from '@hearth/contract';

/** Close codes sent to the browser (application range 4000–4999). */
export const SOCKET_CLOSE = {
  permissionsChanged: 4003,
  serverDeleted: 4004,
  /** Over the panel's per-user or per-server cap (reason `ErrSocketLimit`). */
  socketLimit: 4429,
  nodeLost: 4502,
} as const;

export interface SocketLimits {
  /** Open proxied sockets per server, all users together (keep it below the daemons' `socket.maxPerServer`). */
  perServer: number;
  /** Open proxied sockets per user on one server. */
  perUser: number;
}

export const defaultSocketLimits: SocketLimits = { perServer: 16, perUser: 5 };

export interface ClosableSocket {
  close(code: number, reason: string): void;
  /** Sends one panel-made message to the browser (a transfer's progress). */
  notify?(message: object): void;
  /** Re-reads access and reopens the daemon socket (the server moved to another node). */
  reconnect?(): Promise<void>;
}

export class SocketRegistry {
  private readonly open = new Map<string, Set<ClosableSocket>>();

  constructor(private readonly limits: SocketLimits = defaultSocketLimits) {}

  private key(serverId: string, userId: string): string {
    return `${serverId}\u0000${userId}`;
  }

  /** Registers an open socket; throws 429 ErrSocketLimit (registering nothing) when a cap is reached. */
  add(serverId: string, userId: string, socket: ClosableSocket): () => void {
    const key = this.key(serverId, userId);
    if ((this.open.get(key)?.size ?? 0) >= this.limits.perUser) {
      throw new AppError('ErrSocketLimit', { max: this.limits.perUser });
    }
    if (this.count(serverId) >= this.limits.perServer) {
      throw new AppError('ErrSocketLimit', { max: this.limits.perServer });
    }
    const set = this.open.get(key) ?? new Set();
    set.add(socket);
    this.open.set(key, set);
    return () => {
      set.delete(socket);
      if (set.size === 0 && this.open.get(key) === set) this.open.delete(key);
    };
  }

  /** Sockets open for one server (and one user, when given). */
  count(serverId: string, userId?: string): number {
    let n = 0;
    for (const [key, set] of this.open) if (this.matches(key, serverId, userId)) n += set.size;
    return n;
  }

  /** Every socket open through the panel (/metrics). */
  total(): number {
    let n = 0;
    for (const set of this.open.values()) n += set.size;
    return n;
  }

  closeUser(serverId: string, userId: string): void {
    this.closeWhere(serverId, userId, SOCKET_CLOSE.permissionsChanged, 'permissions changed');
  }

  closeServer(serverId: string): void {
    this.closeWhere(serverId, undefined, SOCKET_CLOSE.serverDeleted, 'server deleted');
  }

  /** Everyone's sockets on a server (a bulk change such as a user's panel permissions). */
  closeAllOf(userId: string): void {
    for (const [key, set] of [...this.open]) {
      if (key.endsWith(`\u0000${userId}`))
        for (const s of [...set]) s.close(SOCKET_CLOSE.permissionsChanged, 'permissions changed');
    }
  }

  /** A panel-made message to every open socket of the server (each holder has access to it). */
  broadcast(serverId: string, message: object): void {
    for (const socket of this.socketsOf(serverId)) socket.notify?.(message);
  }

  /** Every socket of the server reopens its daemon side; resolves once each has tried. */
  async reconnectServer(serverId: string): Promise<void> {
    await Promise.allSettled(
      this.socketsOf(serverId).map((socket) => (socket.reconnect ? socket.reconnect() : Promise.resolve())),
    );
  }

  private socketsOf(serverId: string): ClosableSocket[] {
    const found: ClosableSocket[] = [];
    for (const [key, set] of this.open) if (this.matches(key, serverId, undefined)) found.push(...set);
    return found;
  }

  private matches(key: string, serverId: string, userId: string | undefined): boolean {
    return userId === undefined ? key.startsWith(`${serverId}\u0000`) : key === this.key(serverId, userId);
  }

  private closeWhere(serverId: string, userId: string | undefined, code: number, reason: string): void {
    for (const [key, set] of [...this.open]) {
      if (this.matches(key, serverId, userId)) for (const socket of [...set]) socket.close(code, reason);
    }
  }
}
