/**
 * `GET /metrics` on the panel (docs/api.md § Metrics): registered only while `metrics.enabled` is true, so it is a
 * 404 otherwise (plugins/static.ts keeps /metrics out of the web app's fallback). Its guard is the metrics token
 * or the allow list, not a user's access: the route is `public` to the session check and hidden from /swagger.
 */
import type { App } from '../../app-types';
import type { MetricsConfig } from './metrics.config';
import { metricsGuard } from './access';
import { PanelMetrics, type PanelMetricsSources } from './panel-metrics';

export function metricsRoutes(app: App, config: MetricsConfig, sources: PanelMetricsSources): void {
  if (!config.enabled) return;
  const metrics = new PanelMetrics(sources);
  const guard = metricsGuard(config);
  app.addHook('onResponse', async (request, reply) => {
    metrics.observe(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.get(
    '/metrics',
    {
      config: { permission: 'public' },
      schema: { hide: true },
      onRequest: async (request) => guard(request.headers.authorization, request.ip),
    },
    async (_request, reply) => {
      const text = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(text);
    },
  );
}
