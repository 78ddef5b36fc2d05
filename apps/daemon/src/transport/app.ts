/** Builds the daemon's Fastify app without listening (tests use it directly; daemon.ts listens). */
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerFactory,
  type RouteOptions,
} from 'fastify';
import websocket from '@fastify/websocket';
import { createServer as createHttpsServer } from 'node:https';
import type { Logger } from 'pino';
import { daemonRoute } from './daemon-route';
import { definitionRoutes } from './definition-routes';
import { installErrorHandler } from './errors';
import { installJsonBodyBudget } from './json-body';
import { featuresRoute } from './features-route';
import { fileRoutes } from './file-routes';
import { uploadRoutes } from './upload-routes';
import { runtimeRoutes } from './runtime-routes';
import { socketRoute } from './socket-route';
import { taskRoutes } from './task-routes';
import { backupRoutes } from './backup-routes';
import type { Backups } from '../backups/setup';
import { Telemetry } from '../metrics/telemetry';
import { telemetryRoutes } from '../metrics/telemetry-routes';
import type { Outbox } from '../panel-link/outbox';
import type { AlertWatcher } from '../panel-link/alert-watcher';
import { eventsRoutes } from './events-routes';
import { transferRoutes } from './transfer-routes';
import { daemonSchemaController, installValidation } from './validation';
import type { TransportContext } from './context';

const BODY_LIMIT = 4 * 1024 * 1024;

export interface DaemonAppOptions {
  /** The node's backups (backups/setup.ts); without them the backup routes answer ErrBackupUnavailable. */
  backups?: Backups;
  /** Called for every route as it is registered (the route-table test walks them against the contract). */
  onRoute?: (route: RouteOptions) => void;
  /** Serve HTTPS/WSS with this certificate and key (daemon.ts; docs/security.md § Node link). */
  https?: { cert: string; key: string };
  /** One log line per request (config `accessLog`, or logLevel debug); off by default. */
  accessLog?: boolean;
  /** The node's metrics, history and player counts (daemon.ts starts it); a idle one when absent (tests). */
  telemetry?: Telemetry;
  /** The node outbox the panel pulls (panel-link/outbox.ts); the events routes answer 503 without it. */
  outbox?: Outbox;
  /** The alert conditions this node evaluates (panel-link/alert-watcher.ts); 503 for the watches without it. */
  watcher?: AlertWatcher;
}

export async function buildDaemonApp(
  ctx: TransportContext,
  logger: Logger,
  options: DaemonAppOptions = {},
): Promise<FastifyInstance> {
  const loggerInstance: FastifyBaseLogger = logger; // pino's Logger, seen as Fastify's logger type
  const { https } = options;
  // An https.Server is an http.Server to Fastify and the websocket plugin (same request and upgrade events).
  const serverFactory: FastifyServerFactory | undefined = https
    ? (handler) => createHttpsServer({ ...https, minVersion: 'TLSv1.2' }, handler)
    : undefined;
  const app = Fastify({
    loggerInstance,
    bodyLimit: BODY_LIMIT,
    schemaController: daemonSchemaController,
    logController: new LogController({ disableRequestLogging: options.accessLog !== true }),
    ...(serverFactory ? { serverFactory } : {}),
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  installErrorHandler(app);
  installValidation(app);
  installJsonBodyBudget(app);
  // Console input arrives as a raw text body (PufferPanel); its row's schema takes the string (or JSON).
  app.addContentTypeParser(
    ['text/plain', 'application/octet-stream'],
    { parseAs: 'string' },
    (_req, body, done) => done(null, body),
  );
  await app.register(websocket, { options: { maxPayload: ctx.config.socket.maxMessageBytes } });
  // Every route is a row of the contract's table (docs/permissions.md): need, schemas, registered by daemonRoute.
  daemonRoute(app, ctx, 'alive', async () => ({ message: 'daemon is running' }));
  featuresRoute(app, ctx);
  definitionRoutes(app, ctx);
  runtimeRoutes(app, ctx);
  socketRoute(app, ctx);
  fileRoutes(app, ctx);
  uploadRoutes(app, ctx);
  taskRoutes(app, ctx);
  backupRoutes(app, ctx, options.backups ?? null);
  telemetryRoutes(app, ctx, options.telemetry ?? new Telemetry(ctx.manager, ctx.config, logger));
  eventsRoutes(app, ctx, options.outbox ?? null, options.watcher ?? null);
  transferRoutes(app, ctx, options.backups ?? null);
  return app;
}
