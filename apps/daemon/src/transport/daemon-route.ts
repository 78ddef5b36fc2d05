/**
 * THE way a daemon route is registered: by its row in the contract's permission table (docs/permissions.md).
 * Method and path come from the row and the row's need is checked in `onRequest` — before a body is read or
 * a socket upgraded — so a route cannot exist without a row, nor its guard disagree with the table (the
 * route-table test walks the registered routes against the rows).
 */
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import {
  daemonRoutes,
  isServerRoute,
  type DaemonRouteKey,
  type DaemonRouteRow,
  type DaemonTokenClaims,
} from '@hearth/contract';
import { serverIdOf, type TransportContext } from './context';
import { authorize, authorizeNodeAdmin } from './permissions';
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

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission-table row the route was registered from. */
    daemonRoute?: DaemonRouteKey;
  }
}

const callers = new WeakMap<IncomingMessage, ServerCaller | NodeCaller>();

async function check(ctx: TransportContext, row: DaemonRouteRow, request: FastifyRequest): Promise<void> {
  if (row.need === 'public') return;
  const claims = await ctx.verifier.verify(bearerOf(request.headers.authorization));
  if (!isServerRoute(row)) {
    authorizeNodeAdmin(claims);
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

/** The options every row's route shares: method, path, the row's key and its check. */
function rowOptions(ctx: TransportContext, key: DaemonRouteKey) {
  const row: DaemonRouteRow = daemonRoutes[key];
  return {
    method: row.method,
    url: row.path,
    config: { daemonRoute: key },
    onRequest: async (request: FastifyRequest) => check(ctx, row, request),
  } satisfies Partial<RouteOptions>;
}

/** Registers the HTTP route of row `key`; the handler runs only for a caller the row admits. */
export function daemonRoute<K extends DaemonRouteKey>(
  app: FastifyInstance,
  ctx: TransportContext,
  key: K,
  handler: (request: FastifyRequest, reply: FastifyReply, caller: CallerOf<K>) => Promise<unknown>,
): void {
  app.route({
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
  admit: (request: FastifyRequest, caller: CallerOf<K>) => Promise<void>,
  open: (socket: WebSocket, request: FastifyRequest, caller: CallerOf<K>) => void,
): void {
  app.route({
    ...rowOptions(ctx, key),
    websocket: true,
    preValidation: async (request) => admit(request, callerOf(key, request)),
    handler: (socket: WebSocket, request: FastifyRequest) => open(socket, request, callerOf(key, request)),
  });
}
