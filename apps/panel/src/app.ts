import Fastify, { LogController, type RouteOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyWebsocket from '@fastify/websocket';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PanelConfig } from './config/schema';
import { connectDatabase, type Db } from './db/connect';
import type { App } from './app-types';
import { accessLogOn, loggerOptions, type LogDestination } from './logger';
import { dataDir, themesDir, webDir } from './lib/paths';
import { registerAuth } from './plugins/auth';
import { registerPanelErrorHandler } from './plugins/errors';
import { registerSecurityHeaders } from './plugins/security';
import { registerSwagger } from './plugins/swagger';
import { registerWebApp } from './plugins/static';
import { panelSchemaController, registerJsonBodyBudget, zodValidatorCompiler } from './plugins/validation';
import { createServices, type Services } from './services';
import { registerRoutes } from './routes';
import { registerProxyRecorder } from './modules/activity/proxy-recorder';
import { registerRequestContext } from './modules/activity/request-context';
import { startRetention } from './modules/activity/retention';
import { createAlerts } from './modules/alerts/alerts.module';
import { alertsRoutes } from './modules/alerts/alerts.routes';
import { metricsRoutes } from './modules/metrics/metrics.routes';
import type { AuthLimits } from './lib/rate-limiter';
import type { LinkTimeouts } from './nodes-link/daemon-client';

export interface AppDeps {
  /** An open database; when given, the caller owns it (the app does not close it). */
  db?: Db;
  /** Where pino writes (tests capture logs); stdout by default. */
  logStream?: LogDestination;
  /** Called for every route as it is registered (the authorization-matrix test collects them). */
  onRoute?: (route: RouteOptions) => void;
  /** Rate limits for auth endpoints (tests lower or raise them); defaults in lib/rate-limiter.ts. */
  limits?: AuthLimits;
  /** Panel → daemon timeouts (tests shorten them); defaults in nodes-link/daemon-client.ts. */
  linkTimeouts?: Partial<LinkTimeouts>;
  /** This process runs the local node beside the panel (`hearth start`); without it the panel never calls it. */
  localNodeRuns?: boolean;
}

export interface BuiltApp {
  app: App;
  db: Db;
  services: Services;
}

/** Builds the panel without listening (tests drive it with `app.inject()`). */
export async function buildApp(config: PanelConfig, deps: AppDeps = {}): Promise<BuiltApp> {
  const db = deps.db ?? connectDatabase(config.panel.databaseUrl);
  const app = Fastify({
    logger: loggerOptions(config, deps.logStream),
    logController: new LogController({ disableRequestLogging: !accessLogOn(config.log) }),
    bodyLimit: config.web.bodyLimit,
    schemaController: panelSchemaController,
    trustProxy: config.web.trustProxy,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  if (!deps.db) app.addHook('onClose', () => db.close());
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);

  app.setValidatorCompiler(zodValidatorCompiler);
  registerJsonBodyBudget(app);
  app.setSerializerCompiler(serializerCompiler);
  registerPanelErrorHandler(app);
  registerSecurityHeaders(app);
  await app.register(fastifyCookie);
  // The daemon socket proxy; frames beyond 64 KiB are refused (the daemon caps its own below that).
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  await registerSwagger(app);

  const services = createServices(db, config, {
    log: () => app.log,
    limits: deps.limits,
    linkTimeouts: deps.linkTimeouts,
    localNodeRuns: deps.localNodeRuns,
  });
  app.addHook('onClose', () => services.link.close());
  // onClose hooks run last-added first: this one runs after every recorder stopped, before the database closes.
  app.addHook('onClose', () => services.activity.close());
  // Before the other routes, so its response hook counts every request (modules/metrics; off unless enabled).
  metricsRoutes(app, config.metrics, {
    db,
    sockets: services.sockets,
    nodesRepo: services.nodesRepo,
    nodeStatus: services.nodeStatus,
  });
  // Before any route: services find the request they serve, and the proxy routes get their recorder.
  registerRequestContext(app);
  registerProxyRecorder(app, services.activity);
  registerAuth(app, services);
  await registerRoutes(app, services, {
    themesDir: themesDir(config),
    dataDir: dataDir(config),
    uploadChunkBytes: config.web.uploadChunkBytes,
  });
  // Alerts listen to the activity log as it is written (docs/alerts.md).
  const alerts = createAlerts({ db, ...services, log: () => app.log });
  app.addHook('onClose', async () => alerts.close());
  alertsRoutes(app, alerts.service);
  await registerWebApp(app, webDir(config));
  // The local node exists from the first start; a database outage at boot must not stop the panel.
  const stopRetention = { stop: () => {} };
  app.addHook('onReady', async () => {
    stopRetention.stop = startRetention(services.activity, services.settings, () => app.log);
  });
  app.addHook('onClose', async () => stopRetention.stop());
  // Node events (docs/activity.md § Node events): drained from each node's outbox once the panel serves.
  app.addHook('onReady', async () => {
    if (config.panel.activityEnabled) services.nodeEvents.start(() => app.log);
  });
  app.addHook('onClose', async () => services.nodeEvents.stop());
  app.addHook('onReady', async () => {
    await services.nodes
      .ensureLocal()
      .catch((err: unknown) => app.log.warn({ err }, 'local node not ensured'));
  });
  return { app, db, services };
}
