/**
 * THE permission table of the daemon (docs/permissions.md is generated from it): one row per daemon HTTP route
 * and one per client → daemon socket message, with what the caller needs. The daemon registers each route
 * from its row and checks each message against it; the panel registers its `/proxy/daemon/…` routes from the
 * rows it proxies and checks socket frames against the same rows (docs/security.md, Authorization). The task
 * rows live beside it in task-permissions.ts. Each row also names its wire: the zod schemas of the request
 * parts its route reads and of its answers, which the daemon validates and types its handlers with
 * (docs/adr/0004-contract-route-table.md). Adding a route means adding a row here and one handler.
 */
import { z } from 'zod';
import type { PanelPermission, ServerPermission } from './permissions';
import {
  clientMessageSchemas,
  consoleCommandBodySchema,
  consoleQuerySchema,
  consoleResponseSchema,
  createServerResponseSchema,
  daemonAliveSchema,
  daemonFeaturesSchema,
  flattenEnvelope,
  serverDataResponseSchema,
  serverDataUpdateSchema,
  serverDefinitionViewSchema,
  serverMessageSchemas,
  statsResponseSchema,
  statusResponseSchema,
  waitQuerySchema,
  type ClientMessageType,
} from './daemon';
import { backupRoutes } from './backup-routes';
import { uploadRoutes } from './upload-routes';
import { transferRoutes } from './transfer-routes';
import { serverParamsSchema, serverPathParamsSchema, taskParamsSchema } from './daemon-params';
import {
  archiveRequestSchema,
  archiveResponseSchema,
  extractQuerySchema,
  extractReportSchema,
  fileBytesSchema,
  fileChmodRequestSchema,
  fileCopyReportSchema,
  fileListSchema,
  fileSearchQuerySchema,
  fileSearchResultSchema,
  fileTransferRequestSchema,
  fileUploadQuerySchema,
  type fileMessageSchema,
} from './files';
import { taskCreatedResponseSchema, taskInputSchema, taskListViewSchema } from './tasks';
import { historyQuerySchema, historyResponseSchema, metricsTextSchema, nodePlayersSchema } from './telemetry';
import { nodeEventsAckSchema, nodeEventsPageSchema, nodeEventsQuerySchema } from './node-events';
import { alertWatchesSchema } from './alert-watches';
import { templateSchema } from './template';
import type { Refusal } from './zod-issues';

/** Every flag in the list on the `:id` server, or `'view'`: any access to it. */
export type ServerNeed = readonly [ServerPermission, ...ServerPermission[]] | 'view';

/**
 * What a daemon call needs: server flags or `'view'` (the token must name this server; a node-admin token
 * holds every flag), `'admin'` (a node-admin token: the whole definition, reload, delete, node features),
 * `'public'` (no token at all: the liveness answer), or `'metrics'` (no panel token: the node's own metrics
 * bearer token `metrics.token` or an address in `metrics.allow`, and 404 while `metrics.enabled` is false —
 * a Prometheus server holds no panel key; docs/daemon.md § Metrics), or `'panel'` (the panel's own node-admin
 * token, subject `panel` — no user's token, an administrator's included: the node outbox, node-events.ts).
 */
export type DaemonNeed = ServerNeed | 'admin' | 'public' | 'metrics' | 'panel';

/** What the panel checks before it forwards a call (its route's `config.permission` and `config.server`). */
export interface PanelProxyNeed {
  readonly permission: 'authenticated' | PanelPermission;
  readonly server: ServerPermission | 'view';
}

/**
 * How the panel forwards a proxied route (the forwarding code stays in the panel's proxy files):
 * `plain` streams (modules/servers/proxy.routes.ts), `files` streams with the transfer's timeout
 * (files-proxy.routes.ts), `tasks` sends the parsed JSON (tasks-proxy.routes.ts), `socket` relays a
 * websocket (socket.routes.ts), `backups` streams with the backup id checked and long waits
 * (backups-proxy.routes.ts), `upload` streams a tus request with its headers both ways (upload-proxy.routes.ts).
 */
export type ProxyForward = 'plain' | 'files' | 'tasks' | 'socket' | 'backups' | 'upload';

export interface DaemonProxy {
  /** The panel's path (`/proxy/daemon/server/:id/stats`). */
  readonly path: string;
  readonly forward: ProxyForward;
  /** The panel's own check when the daemon's need does not translate one to one (see `panelNeedOf`). */
  readonly panel?: PanelProxyNeed;
}

/** One status's answer: a schema, or one per media type (a listing as JSON, or a file's bytes). */
export type ResponseSchema =
  z.ZodType | { readonly content: Readonly<Record<string, { readonly schema: z.ZodType }>> };

/**
 * The wire of a row's route: the request parts it reads — path params, query string, JSON (or text) body — and its
 * answer per status. A part the route does not read is `undefined` (every key is present, so the daemon's handler
 * types follow from the row: transport/daemon-route.ts). A multipart upload's body is read as a stream, not here.
 */
export interface RowSchemas {
  readonly params: z.ZodType | undefined;
  readonly query: z.ZodType | undefined;
  readonly body: z.ZodType | undefined;
  readonly response: Readonly<Record<number, ResponseSchema>> | undefined;
  /** What an invalid part answers when it is one code for the whole part, whatever the issue (zod-issues.ts). */
  readonly refusals?: Readonly<Partial<Record<'params' | 'query' | 'body', Refusal>>>;
}

export type DaemonRouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface DaemonRouteRow {
  readonly method: DaemonRouteMethod;
  /** The daemon's path; `:id` marks a server route (the token must name that server). */
  readonly path: string;
  readonly need: DaemonNeed;
  /** Absent: the panel does not proxy it (it calls it itself, or nobody but the node's admin does). */
  readonly proxy?: DaemonProxy;
  /** Why the need is what it is, where the need alone does not say it (rendered into the docs). */
  readonly note?: string;
  readonly schemas: RowSchemas;
}

const S = '/daemon/server/:id';
const P = '/proxy/daemon/server/:id';
const proxied = (suffix: string, forward: ProxyForward, panel?: PanelProxyNeed): DaemonProxy =>
  panel ? { path: `${P}${suffix}`, forward, panel } : { path: `${P}${suffix}`, forward };

// ---- the rows' wire (schemas from daemon.ts, daemon-params.ts, files.ts, tasks.ts, template.ts) ----

/** An empty answer (202, 204). */
export const noContentSchema = z.undefined();
export type NoContent = z.infer<typeof noContentSchema>;

const none = { params: undefined, query: undefined, body: undefined, response: undefined } as const;
const onServer = { ...none, params: serverParamsSchema } as const;
const onPath = { ...none, params: serverPathParamsSchema } as const;
const onTask = { ...none, params: taskParamsSchema } as const;
const ok = <T extends z.ZodType>(schema: T) => ({ 200: schema }) as const;
const done = { 204: noContentSchema } as const;
const accepted = { 202: noContentSchema } as const;
/** A power action: `?wait=true` answers 204 when done, otherwise 202 at once. */
const power = { ...onServer, query: waitQuerySchema, response: { ...accepted, ...done } } as const;
/** A folder listing as JSON, or a file's bytes streamed. */
const listingOrBytes = {
  200: {
    content: {
      'application/json': { schema: fileListSchema },
      'application/octet-stream': { schema: fileBytesSchema },
    },
  },
} as const;
const definitionRefusals = { body: { code: 'ErrInvalidDefinition', field: '(root)' } } as const;
const taskRefusals = {
  body: { code: 'ErrFieldInvalid', field: 'task', byField: { cronSchedule: 'ErrInvalidCron' } },
} as const;

export const daemonRoutes = {
  alive: {
    method: 'GET',
    path: '/daemon',
    need: 'public',
    note: 'Liveness answer; it carries nothing.',
    schemas: { ...none, response: ok(daemonAliveSchema) },
  },
  features: {
    method: 'GET',
    path: '/daemon/features',
    need: 'admin',
    note: 'What the node can run; the panel probes it with a node-admin token.',
    schemas: { ...none, response: ok(daemonFeaturesSchema) },
  },
  metrics: {
    method: 'GET',
    path: '/metrics',
    need: 'metrics',
    note:
      'Prometheus text for a scraper holding the node’s metrics token (not a panel token); registered beside ' +
      'the token guard (apps/daemon/src/metrics/telemetry-routes.ts), 404 while metrics are off.',
    schemas: { ...none, response: ok(metricsTextSchema) },
  },
  players: {
    method: 'GET',
    path: '/daemon/players',
    need: 'admin',
    note: 'The known player counts of every server; the panel’s server list reads them from its cache.',
    schemas: { ...none, response: ok(nodePlayersSchema) },
  },
  definitionRead: {
    method: 'GET',
    path: S,
    need: 'admin',
    proxy: proxied('', 'plain', { permission: 'editServerAdmin', server: 'view' }),
    note: 'The whole definition, commands included: the panel flag editServerAdmin, whose token is node-admin.',
    schemas: { ...onServer, response: ok(serverDefinitionViewSchema) },
  },
  definitionWrite: {
    method: 'POST',
    path: S,
    need: 'admin',
    proxy: proxied('', 'plain', { permission: 'editServerAdmin', server: 'view' }),
    note: 'As reading the definition.',
    schemas: { ...onServer, body: templateSchema, response: done, refusals: definitionRefusals },
  },
  create: {
    method: 'PUT',
    path: S,
    need: 'view',
    schemas: {
      ...onServer,
      body: templateSchema,
      response: ok(createServerResponseSchema),
      refusals: definitionRefusals,
    },
    note:
      'Called by the panel’s `POST /api/servers`: a node-admin token, or a token naming exactly the new id ' +
      '(a non-admin creator); the definition is then not marked admin-edited.',
  },
  delete: {
    method: 'DELETE',
    path: S,
    need: 'admin',
    schemas: { ...onServer, response: done },
    note: 'Called by the panel’s `DELETE /api/servers/:id` (panel flag deleteServers) with a node-admin token.',
  },
  reload: {
    method: 'POST',
    path: `${S}/reload`,
    need: 'admin',
    proxy: proxied('/reload', 'plain', { permission: 'admin', server: 'view' }),
    schemas: { ...onServer, response: done },
  },
  dataRead: {
    method: 'GET',
    path: `${S}/data`,
    need: ['editServerData'],
    proxy: proxied('/data', 'plain'),
    schemas: { ...onServer, response: ok(serverDataResponseSchema) },
  },
  dataWrite: {
    method: 'POST',
    path: `${S}/data`,
    need: ['editServerData'],
    proxy: proxied('/data', 'plain'),
    schemas: {
      ...onServer,
      body: serverDataUpdateSchema,
      response: done,
      refusals: { body: { code: 'ErrFieldInvalid', field: 'data' } },
    },
  },
  status: {
    method: 'GET',
    path: `${S}/status`,
    need: 'view',
    proxy: proxied('/status', 'plain'),
    schemas: { ...onServer, response: ok(statusResponseSchema) },
  },
  stats: {
    method: 'GET',
    path: `${S}/stats`,
    need: ['viewServerStats'],
    proxy: proxied('/stats', 'plain'),
    schemas: { ...onServer, response: ok(statsResponseSchema) },
  },
  history: {
    method: 'GET',
    path: `${S}/history`,
    need: ['viewServerStats'],
    proxy: proxied('/history', 'plain'),
    schemas: {
      ...onServer,
      query: historyQuerySchema,
      response: ok(historyResponseSchema),
      refusals: { query: { code: 'ErrFieldInvalid', field: 'range' } },
    },
  },
  consoleRead: {
    method: 'GET',
    path: `${S}/console`,
    need: ['viewServerConsole'],
    proxy: proxied('/console', 'plain'),
    schemas: { ...onServer, query: consoleQuerySchema, response: ok(consoleResponseSchema) },
  },
  consoleSend: {
    method: 'POST',
    path: `${S}/console`,
    need: ['sendServerConsole'],
    proxy: proxied('/console', 'plain'),
    schemas: {
      ...onServer,
      body: consoleCommandBodySchema,
      response: done,
      refusals: { body: { code: 'ErrFieldRequired', field: 'command' } },
    },
  },
  start: {
    method: 'POST',
    path: `${S}/start`,
    need: ['startServer'],
    proxy: proxied('/start', 'plain'),
    schemas: power,
  },
  stop: {
    method: 'POST',
    path: `${S}/stop`,
    need: ['stopServer'],
    proxy: proxied('/stop', 'plain'),
    schemas: power,
  },
  kill: {
    method: 'POST',
    path: `${S}/kill`,
    need: ['stopServer'],
    proxy: proxied('/kill', 'plain'),
    schemas: power,
  },
  restart: {
    method: 'POST',
    path: `${S}/restart`,
    need: ['startServer', 'stopServer'],
    note: 'Not proxied: the web restarts as a stop, then a start.',
    schemas: power,
  },
  install: {
    method: 'POST',
    path: `${S}/install`,
    need: ['installServer'],
    proxy: proxied('/install', 'plain'),
    schemas: power,
  },
  socket: {
    method: 'GET',
    path: '/daemon/socket/:id',
    need: 'view',
    proxy: {
      path: '/proxy/daemon/socket/:id',
      forward: 'socket',
      panel: { permission: 'authenticated', server: 'viewServerConsole' },
    },
    note:
      'Any access opens the daemon’s socket (each message is checked below; console output needs ' +
      'viewServerConsole); the panel opens it for viewServerConsole holders, others list files over HTTP.',
    schemas: onServer,
  },
  fileRootGet: {
    method: 'GET',
    path: `${S}/file`,
    need: ['viewServerFiles'],
    proxy: proxied('/file', 'files'),
    schemas: { ...onPath, response: listingOrBytes },
  },
  fileGet: {
    method: 'GET',
    path: `${S}/file/*`,
    need: ['viewServerFiles'],
    proxy: proxied('/file/*', 'files'),
    schemas: { ...onPath, response: listingOrBytes },
  },
  fileRootPut: {
    method: 'PUT',
    path: `${S}/file`,
    need: ['putServerFiles'],
    proxy: proxied('/file', 'files'),
    schemas: { ...onPath, query: fileUploadQuerySchema, response: done },
  },
  filePut: {
    method: 'PUT',
    path: `${S}/file/*`,
    need: ['putServerFiles'],
    proxy: proxied('/file/*', 'files'),
    schemas: { ...onPath, query: fileUploadQuerySchema, response: done },
  },
  fileRootDelete: {
    method: 'DELETE',
    path: `${S}/file`,
    need: ['putServerFiles'],
    proxy: proxied('/file', 'files'),
    schemas: { ...onPath, response: done },
  },
  fileDelete: {
    method: 'DELETE',
    path: `${S}/file/*`,
    need: ['putServerFiles'],
    proxy: proxied('/file/*', 'files'),
    schemas: { ...onPath, response: done },
  },
  archive: {
    method: 'POST',
    path: `${S}/archive/*`,
    need: ['putServerFiles'],
    proxy: proxied('/archive/*', 'files'),
    schemas: {
      ...onPath,
      body: archiveRequestSchema,
      response: ok(archiveResponseSchema),
      refusals: { body: { code: 'ErrFieldInvalid', field: 'paths' } },
    },
  },
  fileMove: {
    method: 'POST',
    path: `${S}/move`,
    need: ['putServerFiles'],
    proxy: proxied('/move', 'files'),
    note: 'Rename or move one entry (rename(2), atomic); a taken target only with overwrite.',
    schemas: { ...onServer, body: fileTransferRequestSchema, response: done },
  },
  fileCopy: {
    method: 'POST',
    path: `${S}/copy`,
    need: ['putServerFiles'],
    proxy: proxied('/copy', 'files'),
    note: 'Copies into a temp name, then renames it into place.',
    schemas: { ...onServer, body: fileTransferRequestSchema, response: ok(fileCopyReportSchema) },
  },
  fileChmod: {
    method: 'POST',
    path: `${S}/chmod`,
    need: ['putServerFiles'],
    proxy: proxied('/chmod', 'files'),
    note: 'Permission bits only (0–0777).',
    schemas: { ...onServer, body: fileChmodRequestSchema, response: done },
  },
  fileSearch: {
    method: 'GET',
    path: `${S}/search`,
    need: ['viewServerFiles'],
    proxy: proxied('/search', 'files'),
    schemas: { ...onServer, query: fileSearchQuerySchema, response: ok(fileSearchResultSchema) },
  },
  extract: {
    method: 'GET',
    path: `${S}/extract/*`,
    need: ['putServerFiles'],
    proxy: proxied('/extract/*', 'files'),
    note: 'A GET that writes (PufferPanel’s wire).',
    schemas: { ...onPath, query: extractQuerySchema, response: ok(extractReportSchema) },
  },
  tasksList: {
    method: 'GET',
    path: `${S}/tasks`,
    need: ['editServerData'],
    proxy: proxied('/tasks', 'tasks'),
    schemas: { ...onServer, response: ok(taskListViewSchema) },
  },
  taskCreate: {
    method: 'POST',
    path: `${S}/tasks`,
    need: ['editServerData'],
    proxy: proxied('/tasks', 'tasks'),
    schemas: {
      ...onServer,
      body: taskInputSchema,
      response: ok(taskCreatedResponseSchema),
      refusals: taskRefusals,
    },
  },
  taskUpdate: {
    method: 'PUT',
    path: `${S}/tasks/:taskId`,
    need: ['editServerData'],
    proxy: proxied('/tasks/:taskId', 'tasks'),
    schemas: { ...onTask, body: taskInputSchema, response: done, refusals: taskRefusals },
  },
  taskDelete: {
    method: 'DELETE',
    path: `${S}/tasks/:taskId`,
    need: ['editServerData'],
    proxy: proxied('/tasks/:taskId', 'tasks'),
    schemas: { ...onTask, response: done },
  },
  taskRun: {
    method: 'POST',
    path: `${S}/tasks/:taskId/run`,
    need: ['editServerData'],
    proxy: proxied('/tasks/:taskId/run', 'tasks'),
    note: 'Each step is then checked against its owner’s flags (task operations below).',
    schemas: { ...onTask, response: accepted },
  },
  events: {
    method: 'GET',
    path: '/daemon/events',
    need: 'panel',
    note: 'The node outbox (docs/activity.md § Node events): pulled by the panel into its activity log.',
    schemas: { ...none, query: nodeEventsQuerySchema, response: ok(nodeEventsPageSchema) },
  },
  eventsAck: {
    method: 'POST',
    path: '/daemon/events/ack',
    need: 'panel',
    note: 'The panel recorded every event up to `seq`: the node forgets them.',
    schemas: { ...none, body: nodeEventsAckSchema, response: done },
  },
  alertWatches: {
    method: 'PUT',
    path: '/daemon/alert-watches',
    need: 'panel',
    note: 'The alert conditions this node evaluates (docs/alerts.md): thresholds, empty servers, console patterns.',
    schemas: { ...none, body: alertWatchesSchema, response: done },
  },
  // Backups (docs/backups.md): their rows live in backup-routes.ts.
  ...backupRoutes,
  // Resumable (tus) uploads (docs/files.md): their rows live in upload-routes.ts.
  ...uploadRoutes,
  // Moving a server between nodes (docs/daemon.md § Transfer): their rows live in transfer-routes.ts.
  ...transferRoutes,
} as const satisfies Record<string, DaemonRouteRow>;

export type DaemonRouteKey = keyof typeof daemonRoutes;

/** Every row keyed by name, in table order. */
export function daemonRouteRows(): Array<[DaemonRouteKey, DaemonRouteRow]> {
  return Object.entries(daemonRoutes) as Array<[DaemonRouteKey, DaemonRouteRow]>;
}

/** A server route: the token must name the `:id` server (or be a node-wide admin token). */
export function isServerRoute(row: DaemonRouteRow): boolean {
  return row.path.includes('/:id');
}

/**
 * What the panel checks for a proxied row: its stated check, else the daemon's need one to one (any access,
 * or the one flag). A row whose daemon need is admin or several flags must state the panel's check.
 */
export function panelNeedOf(row: Pick<DaemonRouteRow, 'method' | 'path' | 'need' | 'proxy'>): PanelProxyNeed {
  if (row.proxy?.panel) return row.proxy.panel;
  if (row.need === 'view') return { permission: 'authenticated', server: 'view' };
  const flags = flagsOf(row.need);
  if (row.need !== 'admin' && flags.length === 1 && flags[0]) {
    return { permission: 'authenticated', server: flags[0] };
  }
  throw new Error(
    `${row.method} ${row.path}: a proxied row needing ${String(row.need)} states its panel check`,
  );
}

/** The rows the panel proxies through one forwarding path, in table order. */
export function proxiedRows(
  forward: ProxyForward,
): Array<[DaemonRouteKey, DaemonRouteRow & { proxy: DaemonProxy }]> {
  return daemonRouteRows().filter(
    (entry): entry is [DaemonRouteKey, DaemonRouteRow & { proxy: DaemonProxy }] =>
      entry[1].proxy?.forward === forward,
  );
}

// ---- socket messages (client → daemon) ----

export type FileAction = z.infer<typeof fileMessageSchema>['action'];
export type SocketMessageKey = Exclude<ClientMessageType, 'file'> | `file:${FileAction}`;

/** A socket message's wire: its shape (daemon.ts `clientMessageSchemas`) and the message it is answered with. */
export interface SocketSchemas {
  readonly message: z.ZodType;
  /** Absent: no direct answer (power messages are followed by `status` broadcasts; errors come as `error`). */
  readonly reply?: z.ZodType;
}

export interface SocketMessageRow {
  readonly type: ClientMessageType;
  /** For `file` messages: the action the row is about. */
  readonly action?: FileAction;
  readonly need: ServerNeed;
  readonly note?: string;
  readonly schemas: SocketSchemas;
}

const ask = clientMessageSchemas;
const tell = serverMessageSchemas;

export const socketMessages = {
  start: { type: 'start', need: ['startServer'], schemas: { message: ask.start } },
  stop: { type: 'stop', need: ['stopServer'], schemas: { message: ask.stop } },
  kill: { type: 'kill', need: ['stopServer'], schemas: { message: ask.kill } },
  restart: { type: 'restart', need: ['startServer', 'stopServer'], schemas: { message: ask.restart } },
  install: { type: 'install', need: ['installServer'], schemas: { message: ask.install } },
  stat: { type: 'stat', need: ['viewServerStats'], schemas: { message: ask.stat, reply: tell.stat } },
  status: { type: 'status', need: 'view', schemas: { message: ask.status, reply: tell.status } },
  replay: {
    type: 'replay',
    need: ['viewServerConsole'],
    schemas: { message: ask.replay, reply: tell.console },
  },
  console: { type: 'console', need: ['sendServerConsole'], schemas: { message: ask.console } },
  ping: { type: 'ping', need: 'view', schemas: { message: ask.ping, reply: tell.pong } },
  'file:get': {
    type: 'file',
    action: 'get',
    need: ['viewServerFiles'],
    schemas: { message: ask.file, reply: tell['file-list'] },
  },
  'file:create': {
    type: 'file',
    action: 'create',
    need: ['viewServerFiles', 'putServerFiles'],
    note: 'Answers with the new folder’s listing, so it reads as well as writes.',
    schemas: { message: ask.file, reply: tell['file-list'] },
  },
  'file:delete': {
    type: 'file',
    action: 'delete',
    need: ['viewServerFiles', 'putServerFiles'],
    note: 'Answers with the parent folder’s listing, so it reads as well as writes.',
    schemas: { message: ask.file, reply: tell['file-list'] },
  },
} as const satisfies Record<SocketMessageKey, SocketMessageRow>;

/** Every socket row keyed by name, in table order. */
export function socketMessageRows(): Array<[SocketMessageKey, SocketMessageRow]> {
  return Object.entries(socketMessages) as Array<[SocketMessageKey, SocketMessageRow]>;
}

/**
 * The row a client message (parsed JSON, not yet validated) falls under, read the way the daemon parses it:
 * `type` case-insensitive, fields beside `type` or inside a `data` envelope (daemon.ts `flattenEnvelope`).
 * Undefined for a type or file action the table does not hold.
 */
export function socketMessageKeyOf(message: unknown): SocketMessageKey | undefined {
  const flat = flattenEnvelope(message);
  if (typeof flat !== 'object' || flat === null) return undefined;
  const { type, action } = flat as { type?: unknown; action?: unknown };
  if (typeof type !== 'string' || type.includes(':')) return undefined;
  const key = type === 'file' ? (typeof action === 'string' ? `file:${action}` : '') : type;
  return Object.hasOwn(socketMessages, key) ? (key as SocketMessageKey) : undefined;
}

/** The flags a need names (none for `'view'`, `'admin'`, `'public'`, `'metrics'` and `'panel'`). */
export function flagsOf(need: DaemonNeed): readonly ServerPermission[] {
  return typeof need === 'string' ? [] : need;
}
