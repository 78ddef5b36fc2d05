/**
 * The node outbox's routes (table rows `events` and `eventsAck`, the panel's own token only; docs/activity.md
 * § Node events): the panel pulls the events after its cursor, records them, then acknowledges them. Each page
 * also says which alert watches the node holds (row `alertWatches`, docs/alerts.md), so the panel pushes them
 * again when they differ from its rules.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '@hearth/contract';
import { OutboxAckError, type Outbox } from '../panel-link/outbox';
import type { AlertWatcher } from '../panel-link/alert-watcher';
import type { TransportContext } from './context';
import { daemonRoute } from './daemon-route';

/** Without an outbox (an app built alone, in some tests) both routes answer that the service is not there. */
export function eventsRoutes(
  app: FastifyInstance,
  ctx: TransportContext,
  outbox: Outbox | null,
  watcher: AlertWatcher | null = null,
): void {
  const need = (): Outbox => {
    if (!outbox) throw new AppError('ErrServiceNotAvailable');
    return outbox;
  };
  daemonRoute(app, ctx, 'events', async (request) => {
    const { after, limit } = request.query;
    const page = need().page(after, limit);
    return watcher ? { ...page, watches: watcher.version } : page;
  });
  daemonRoute(app, ctx, 'alertWatches', async (request, reply) => {
    if (!watcher) throw new AppError('ErrServiceNotAvailable');
    watcher.set(request.body);
    reply.code(204);
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
