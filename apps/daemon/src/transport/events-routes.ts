/**
 * The node outbox's routes (table rows `events` and `eventsAck`, the panel's own token only; docs/activity.md
 * § Node events): the panel pulls the events after its cursor, records them, then acknowledges them.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '@hearth/contract';
import { OutboxAckError, type Outbox } from '../panel-link/outbox';
import type { TransportContext } from './context';
import { daemonRoute } from './daemon-route';

/** Without an outbox (an app built alone, in some tests) both routes answer that the service is not there. */
export function eventsRoutes(app: FastifyInstance, ctx: TransportContext, outbox: Outbox | null): void {
  const need = (): Outbox => {
    if (!outbox) throw new AppError('ErrServiceNotAvailable');
    return outbox;
  };
  daemonRoute(app, ctx, 'events', async (request) => {
    const { after, limit } = request.query;
    return need().page(after, limit);
  });
  daemonRoute(app, ctx, 'eventsAck', async (request, reply) => {
    const { outbox: id, seq } = request.body;
    try {
      await need().ack(id, seq);
    } catch (err) {
      // Another outbox (the node's data folder was wiped) or a number never handed out: the panel re-pulls.
      if (err instanceof OutboxAckError) throw new AppError('ErrFieldInvalid', { field: err.field });
      throw err;
    }
    reply.code(204);
  });
}
