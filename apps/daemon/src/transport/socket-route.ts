/**
 * `GET /daemon/socket/:id` (websocket). The token (any access to the server: a files-only user uses the socket
 * for `file` messages; console output needs viewServerConsole, see SocketSession) is checked before the upgrade,
 * as is the per-server socket limit (429 ErrSocketLimit); message size is capped by `maxPayload`.
 */
import type { FastifyInstance } from 'fastify';
import type { DaemonTokenClaims } from '@hearth/contract';
import { AppError } from '@hearth/contract';
import { guard, type TransportContext } from './context';
import { SocketCounter } from './socket-limits';
import { SocketSession } from './socket-session';

export function socketRoute(app: FastifyInstance, ctx: TransportContext): void {
  const counter = new SocketCounter(ctx.config.socket.maxPerServer);
  const admitted = new WeakMap<object, { claims: DaemonTokenClaims; id: string; release: () => void }>();

  app.get(
    '/daemon/socket/:id',
    {
      websocket: true,
      preValidation: async (request) => {
        const { claims, id } = await guard(ctx, request, 'view');
        ctx.manager.get(id);
        const release = counter.acquire(id);
        if (!release) throw new AppError('ErrSocketLimit', { max: ctx.config.socket.maxPerServer });
        admitted.set(request.raw, { claims, id, release });
      },
    },
    (socket, request) => {
      const entry = admitted.get(request.raw);
      if (!entry) return socket.close(1011, 'not admitted');
      const session = new SocketSession(
        socket,
        ctx.manager.get(entry.id),
        entry.claims,
        ctx.config.socket.messagesPerSecond,
      );
      socket.on('close', () => {
        session.close();
        entry.release();
      });
    },
  );
}
