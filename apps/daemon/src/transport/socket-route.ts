/**
 * `GET /daemon/socket/:id` (websocket). The token (any access to the server: a files-only user uses the socket
 * for `file` messages; console output needs viewServerConsole, see SocketSession) is checked before the upgrade
 * by the table row `socket` (docs/permissions.md), as is the per-server socket limit (429 ErrSocketLimit);
 * message size is capped by `maxPayload`.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '@hearth/contract';
import type { TransportContext } from './context';
import { daemonSocketRoute } from './daemon-route';
import { SocketCounter } from './socket-limits';
import { SocketSession } from './socket-session';

export function socketRoute(app: FastifyInstance, ctx: TransportContext): void {
  const counter = new SocketCounter(ctx.config.socket.maxPerServer);
  const releases = new WeakMap<object, () => void>();

  daemonSocketRoute(
    app,
    ctx,
    'socket',
    async (request, { id }) => {
      ctx.manager.get(id);
      const release = counter.acquire(id);
      if (!release) throw new AppError('ErrSocketLimit', { max: ctx.config.socket.maxPerServer });
      releases.set(request.raw, release);
    },
    (socket, request, { claims, id }) => {
      const release = releases.get(request.raw);
      if (!release) return socket.close(1011, 'not admitted');
      const session = new SocketSession(
        socket,
        ctx.manager.get(id),
        claims,
        ctx.config.socket.messagesPerSecond,
      );
      socket.on('close', () => {
        session.close();
        release();
      });
    },
  );
}
