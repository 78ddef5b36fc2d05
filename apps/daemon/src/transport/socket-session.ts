/**
 * One websocket connection to one server. Every inbound message is checked against the
 * token's permissions; replies and broadcasts use the `{type, data}` envelope; errors are `error` events.
 */
import type { WebSocket } from 'ws';
import {
  AppError,
  clientMessageSchema,
  socketMessages,
  type ClientMessage,
  type DaemonTokenClaims,
  type ServerMessage,
  type SocketMessageKey,
} from '@hearth/contract';
import { onBackupEvent } from '../backups/events';
import { beginners } from '../server/power';
import type { Server } from '../server/server';
import { socketError } from './errors';
import { answerFileMessage } from './socket-files';
import { authorize } from './permissions';
import { RateWindow } from './socket-limits';
import { TOKEN_CLOCK_TOLERANCE_SECONDS } from './token';

/** Output waiting in the socket beyond this marks the subscriber congested (its queue then builds up). */
const SOCKET_HIGH_WATER_BYTES = 256 * 1024;
/** Close code when the token the socket was opened with expires (application range 4000–4999). */
export const TOKEN_EXPIRED_CLOSE_CODE = 4001;
/** setTimeout's longest delay; a later expiry is re-armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The permission-table row of a parsed message (docs/permissions.md): its type, or `file:` and its action. */
function rowKeyOf(message: ClientMessage): SocketMessageKey {
  return message.type === 'file' ? `file:${message.action}` : message.type;
}

export class SocketSession {
  private readonly rate: RateWindow;
  private readonly cleanups: Array<() => void> = [];
  private expiryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly socket: WebSocket,
    private readonly server: Server,
    private readonly claims: DaemonTokenClaims,
    messagesPerSecond: number,
  ) {
    this.rate = new RateWindow(messagesPerSecond);
    this.cleanups.push(server.onStatus((data) => this.send({ type: 'status', data })));
    // Console output only for those who may see it (the socket itself is open to any access: files).
    if (claims.admin || claims.perms.includes('viewServerConsole')) {
      this.cleanups.push(
        server.fanout.subscribe({
          send: (message) => socket.send(message),
          congested: () => socket.bufferedAmount > SOCKET_HIGH_WATER_BYTES,
        }),
      );
    }
    // Backup progress and results for those who may see the server's backups (docs/backups.md § Progress).
    if (claims.admin || claims.perms.includes('viewServerBackups')) {
      this.cleanups.push(onBackupEvent(server, (event) => this.send(event)));
    }
    socket.on('message', (raw: Buffer, isBinary) => void this.receive(raw.toString('utf8'), isBinary));
    this.armExpiry();
  }

  /**
   * The socket lives only as long as its token: at `exp` (plus the clock tolerance the verifier grants) it gets an `error` event (ErrDaemonTokenInvalid) and
   * is closed with 4001, so revoked access cannot keep streaming; the panel reconnects with a fresh token.
   */
  private armExpiry(): void {
    const remaining = (this.claims.exp + TOKEN_CLOCK_TOLERANCE_SECONDS) * 1000 - Date.now();
    if (remaining <= 0) {
      this.sendError(new AppError('ErrDaemonTokenInvalid', { reason: 'token expired' }));
      this.socket.close(TOKEN_EXPIRED_CLOSE_CODE, 'token expired');
      return;
    }
    this.expiryTimer = setTimeout(() => this.armExpiry(), Math.min(remaining, MAX_TIMER_MS));
  }

  close(): void {
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.expiryTimer = null;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }

  private send(message: ServerMessage): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private sendError(err: unknown): void {
    const known = socketError(err);
    this.send({ type: 'error', data: known.toBody() });
  }

  private parse(text: string, isBinary: boolean): ClientMessage {
    let json: unknown;
    try {
      json = isBinary ? undefined : JSON.parse(text);
    } catch {
      throw new AppError('ErrInvalidJson');
    }
    const parsed = clientMessageSchema.safeParse(json);
    if (!parsed.success)
      throw new AppError('ErrFieldInvalid', { field: parsed.error.issues[0]?.path.join('.') || 'type' });
    return parsed.data;
  }

  private async receive(text: string, isBinary: boolean): Promise<void> {
    try {
      if (!this.rate.take()) throw new AppError('ErrRateLimited', { retryAfter: 1 });
      const message = this.parse(text, isBinary);
      authorize(this.claims, this.server.id, socketMessages[rowKeyOf(message)].need);
      await this.handle(message);
    } catch (err) {
      this.sendError(err);
    }
  }

  private async handle(message: ClientMessage): Promise<void> {
    switch (message.type) {
      case 'start':
      case 'stop':
      case 'kill':
      case 'restart':
      case 'install':
        return beginners[message.type](this.server)().catch((err: unknown) => this.sendError(err));
      case 'stat':
        return this.send({ type: 'stat', data: await this.server.stats() });
      case 'status':
        return this.send({ type: 'status', data: this.server.status() });
      case 'replay': {
        const chunks = this.server.console.since(message.since);
        const epoch = chunks.at(-1)?.epoch ?? this.server.console.latestEpoch();
        return this.send({ type: 'console', data: { logs: chunks.map((c) => c.text), epoch } });
      }
      case 'console':
        return this.server.sendCommand(message.command);
      case 'ping':
        return this.send({ type: 'pong', data: {} });
      case 'file': {
        const data = await answerFileMessage(this.server.sandbox, this.claims, this.server.id, message);
        return this.send({ type: 'file-list', data });
      }
    }
  }
}
