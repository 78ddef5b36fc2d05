/**
 * THE way a daemon route is registered: by its row in the contract's permission table (docs/permissions.md).
 * Method, path and wire come from the row: the row's need is checked in `onRequest` — before a body is read or
 * a socket upgraded — then the request parts the row declares are validated by its schemas (validation.ts) and
 * the handler gets them typed through the zod type provider, with its answer typed by the row's response schemas.
 * So a route cannot exist without a row, nor its guard or its wire disagree with the table (the route-table test
 * walks the registered routes against the rows; docs/adr/0004-contract-route-table.md).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawServerDefault,
  RouteGenericInterface,
  RouteOptions,
} from 'fastify';
import type { ResolveFastifyReplyReturnType } from 'fastify/types/type-provider';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AppError,
  daemonRoutes,
  isServerRoute,
  serverParamsSchema,
  type DaemonRouteKey,
  type DaemonRouteRow,
  type DaemonTokenClaims,
} from '@hearth/contract';
import { checkPart } from '@hearth/contract/zod-issues';
import type { TransportContext } from './context';
import { authorize, authorizeNodeAdmin, authorizePanel } from './permissions';
import { bearerOf } from './token';

/** The caller of a server route: the verified claims and the checked `:id`. */
export interface ServerCaller {
  claims: DaemonTokenClaims;
  id: string;
}

/** The caller of a node-wide route (no `:id`). */
export interface NodeCaller {
  claims: DaemonTokenClaims;
}

type Row<K extends DaemonRouteKey> = (typeof daemonRoutes)[K];

/** What a handler learns about its caller: nothing on a public row, the claims (and id on server rows). */
export type CallerOf<K extends DaemonRouteKey> = Row<K>['need'] extends 'public'
  ? null
  : Row<K>['path'] extends `${string}/:id${string}`
    ? ServerCaller
    : NodeCaller;

/** Row K's wire in Fastify's terms, which the zod type provider turns into request and reply types. */
export interface RouteSchemaOf<K extends DaemonRouteKey> {
  params: Row<K>['schemas']['params'];
  querystring: Row<K>['schemas']['query'];
  body: Row<K>['schemas']['body'];
  response: Row<K>['schemas']['response'];
}

/** A request of row K: `params`, `query` and `body` as its schemas output them (validated before the handler). */
export type RowRequest<K extends DaemonRouteKey> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  IncomingMessage,
  RouteSchemaOf<K>,
  ZodTypeProvider
>;

/** The reply of row K: `send` takes what its response schemas describe. */
export type RowReply<K extends DaemonRouteKey> = FastifyReply<
  RouteGenericInterface,
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  unknown,
  RouteSchemaOf<K>,
  ZodTypeProvider
>;

/**
 * A handler of row K. It answers a body its response schemas describe (serialised by them), a file's bytes as a
 * stream where the row declares them, or nothing after setting the status of an empty answer (202, 204).
 */
export type RowHandler<K extends DaemonRouteKey> = (
  request: RowRequest<K>,
  reply: RowReply<K>,
  caller: CallerOf<K>,
) => ResolveFastifyReplyReturnType<ZodTypeProvider, RouteSchemaOf<K>, RouteGenericInterface>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission-table row the route was registered from. */
    daemonRoute?: DaemonRouteKey;
  }
}

const callers = new WeakMap<IncomingMessage, ServerCaller | NodeCaller>();

/** The `:id` the token must name, checked before anything else reads the request (an unknown form is a 404). */
function serverIdOf(request: FastifyRequest): string {
  const checked = checkPart(serverParamsSchema, request.params, 'params');
  if ('error' in checked) throw checked.error;
  return checked.value.id;
}

async function check(ctx: TransportContext, row: DaemonRouteRow, request: FastifyRequest): Promise<void> {
  if (row.need === 'public') return;
  // The metrics row is registered with its own guard (metrics/metrics-route.ts): no panel token reads it here.
  if (row.need === 'metrics') throw new AppError('ErrNotFound');
  const claims = await ctx.verifier.verify(bearerOf(request.headers.authorization));
  if (row.need === 'panel' || !isServerRoute(row)) {
    if (row.need === 'panel') authorizePanel(claims);
    else authorizeNodeAdmin(claims);
    callers.set(request.raw, { claims });
    return;
  }
  const id = serverIdOf(request);
  authorize(claims, id, row.need);
  callers.set(request.raw, { claims, id });
}

function callerOf<K extends DaemonRouteKey>(key: K, request: FastifyRequest): CallerOf<K> {
  if (daemonRoutes[key].need === 'public') return null as CallerOf<K>;
  const caller = callers.get(request.raw);
  // onRequest always runs first; reaching here without a caller would be a Fastify change, refused.
  if (!caller) throw new Error(`daemon route ${key}: no checked caller`);
  return caller as CallerOf<K>;
}

const FASTIFY_PARTS = ['params', 'querystring', 'body', 'response'] as const;

/**
 * Row K's schemas under Fastify's names. A part the row does not read is left out rather than given as
 * `undefined` (Fastify warns of that); reading it still gives `undefined`, as its type says.
 */
function schemaOf<K extends DaemonRouteKey>(key: K): RouteSchemaOf<K> {
  const { params, query, body, response } = daemonRoutes[key].schemas;
  const schema: RouteSchemaOf<K> = { params, querystring: query, body, response };
  for (const part of FASTIFY_PARTS) if (schema[part] === undefined) Reflect.deleteProperty(schema, part);
  return schema;
}

/** The options every row's route shares: method, path, the row's key, its check and its schemas. */
function rowOptions<K extends DaemonRouteKey>(ctx: TransportContext, key: K) {
  const row: DaemonRouteRow = daemonRoutes[key];
  return {
    method: row.method,
    url: row.path,
    config: { daemonRoute: key },
    schema: schemaOf(key),
    onRequest: async (request: FastifyRequest) => check(ctx, row, request),
  } satisfies Partial<RouteOptions>;
}

/** Registers the HTTP route of row `key`; the handler runs only for a caller the row admits. */
export function daemonRoute<K extends DaemonRouteKey>(
  app: FastifyInstance,
  ctx: TransportContext,
  key: K,
  handler: RowHandler<K>,
): void {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...rowOptions(ctx, key),
    handler: (request, reply) => handler(request, reply, callerOf(key, request)),
  });
}

/**
 * Registers the websocket route of row `key`: `admit` runs after the row's check and before the upgrade (a
 * refusal there is still an HTTP answer); `open` gets the upgraded socket.
 */
export function daemonSocketRoute<K extends DaemonRouteKey>(
  app: FastifyInstance,
  ctx: TransportContext,
  key: K,
  admit: (request: RowRequest<K>, caller: CallerOf<K>) => Promise<void>,
  open: (socket: WebSocket, request: RowRequest<K>, caller: CallerOf<K>) => void,
): void {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...rowOptions(ctx, key),
    websocket: true,
    preHandler: async (request) => admit(request, callerOf(key, request)),
    handler: (socket: WebSocket, request: RowRequest<K>) => open(socket, request, callerOf(key, request)),
  });
}
