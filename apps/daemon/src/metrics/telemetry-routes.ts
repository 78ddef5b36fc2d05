/**
 * The telemetry rows of the permission table: `metrics` (its own guard: the node's metrics token, not a panel
 * token — see the row's note), `players` (node admin) and `history` (viewServerStats), each registered from its
 * row (docs/permissions.md).
 */
import type { FastifyInstance } from 'fastify';
import { daemonRoutes } from '@hearth/contract';
import type { TransportContext } from '../transport/context';
import { daemonRoute } from '../transport/daemon-route';
import { metricsGuard } from './access';
import type { Telemetry } from './telemetry';

export function telemetryRoutes(app: FastifyInstance, ctx: TransportContext, telemetry: Telemetry): void {
  const row = daemonRoutes.metrics;
  const guard = metricsGuard(ctx.config.metrics);
  app.route({
    method: row.method,
    url: row.path,
    config: { daemonRoute: 'metrics' },
    // Checked before anything is read, like every row's need (transport/daemon-route.ts).
    onRequest: async (request) => guard(request.headers.authorization, request.ip),
    handler: async (_request, reply) => {
      const text = await telemetry.registry.metrics();
      return reply.type(telemetry.registry.contentType).send(text);
    },
  });

  daemonRoute(app, ctx, 'players', async () => ({
    servers: telemetry.playerCounts(),
    live: telemetry.liveStates(),
  }));

  daemonRoute(app, ctx, 'history', async (request, _reply, { id }) => {
    ctx.manager.get(id); // an unknown server is a 404, not an empty history
    return telemetry.history(id, request.query.range);
  });
}
