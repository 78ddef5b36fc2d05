/**
 * The daemon wire (reference v2 §8–§9): HTTP bodies and websocket
 * messages. Epochs are unix **milliseconds**; console chunk epochs are strictly increasing per server, so
 * `replay {since: lastEpoch}` returns exactly the chunks not seen yet.
 */
import { z } from 'zod';
import { variableSchema } from './template';
import { fileListSchema, fileMessageSchema } from './files';
import { backupDoneEventSchema, backupProgressEventSchema } from './backup-events';
import { transferDoneEventSchema, transferProgressEventSchema } from './transfer';
import { playerCountSchema } from './telemetry';
import { variableEffectSchema } from './variable-effects';

// ---- HTTP ----
/**
 * `installed`: installed successfully at least once, or nothing to install (docs/daemon.md § Installed mark);
 * optional because a daemon older than the mark does not send it, and then a server counts as installed.
 */
export const statusResponseSchema = z.object({
  running: z.boolean(),
  installing: z.boolean(),
  installed: z.boolean().optional(),
});
export type StatusResponse = z.infer<typeof statusResponseSchema>;

/** CPU % of one core and memory bytes of the process tree; `players` when the template's query answers. */
export const statsResponseSchema = z.object({
  cpu: z.number(),
  memory: z.number(),
  players: playerCountSchema.optional(),
});
export type StatsResponse = z.infer<typeof statsResponseSchema>;

/** `logs` joins the chunks newer than `?time=`; `epoch` is the newest chunk's epoch (or now if none). */
export const consoleResponseSchema = z.object({ logs: z.string(), epoch: z.number() });
export type ConsoleResponse = z.infer<typeof consoleResponseSchema>;

/** `effects`: per variable, when a change takes effect (./variable-effects.ts); absent from older daemons. */
export const serverDataResponseSchema = z.object({
  data: z.record(z.string(), variableSchema),
  effects: z.record(z.string(), z.array(variableEffectSchema)).optional(),
});
export type ServerDataResponse = z.infer<typeof serverDataResponseSchema>;

export const serverDataUpdateSchema = z.object({
  data: z.record(z.string(), z.object({ value: z.unknown() })),
});
export type ServerDataUpdate = z.infer<typeof serverDataUpdateSchema>;

/** `GET /daemon/features` (admin token): what this node can run; `docker` is a live engine check. */
export const daemonFeaturesSchema = z.object({
  docker: z.boolean(),
  /** Why Docker is unavailable (engine not running, permission denied), when it is. */
  dockerError: z.string().optional(),
  environments: z.array(z.enum(['standard', 'tty', 'docker'])),
  os: z.string(),
  arch: z.string(),
  /** Scheduled tasks are supported (turns on the Tasks tab; absent from older daemons = off). */
  tasks: z.boolean().default(false),
  /** How standard/tty servers are isolated (docs/security.md "Isolation model"); absent from older daemons. */
  isolation: z.enum(['uid-bubblewrap', 'uid', 'bubblewrap', 'none']).optional(),
});
export type IsolationMode = NonNullable<DaemonFeatures['isolation']>;
export type DaemonFeatures = z.infer<typeof daemonFeaturesSchema>;

export const createServerResponseSchema = z.object({ id: z.string() });
export type CreateServerResponse = z.infer<typeof createServerResponseSchema>;

export const serverIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ or -, at most 64');
export type ServerId = z.infer<typeof serverIdSchema>;

/** `GET /daemon`: the liveness answer; it carries nothing else. */
export const daemonAliveSchema = z.object({ message: z.string() });
export type DaemonAlive = z.infer<typeof daemonAliveSchema>;

/**
 * `GET /daemon/server/{id}`: the stored definition (templateSchema's output, already normalised) with its id.
 * Described by its id alone: the definition's normalising transforms cannot run backwards to check a response.
 */
export const serverDefinitionViewSchema = z.looseObject({ id: serverIdSchema });
export type ServerDefinitionView = z.infer<typeof serverDefinitionViewSchema>;

const WAIT_VALUES: ReadonlyArray<string | undefined> = [undefined, 'true', 'false', '1', '0', ''];

/**
 * `?wait=` of the power actions: `true`/`1` answer when the action is done (204), `false`/`0`/empty or absent at
 * once (202). The value decides, not the presence (PufferPanel blocked on `wait=false`); anything else is
 * ErrFieldInvalid.
 */
export const waitQuerySchema = z.object({
  wait: z
    .string()
    .optional()
    .refine((value) => WAIT_VALUES.includes(value), 'true, false, 1, 0 or empty')
    .transform((value) => value === 'true' || value === '1'),
});
export type WaitQuery = z.output<typeof waitQuerySchema>;

/** Text of a unix time in milliseconds (blank = from the start). */
function isUnixTimeText(value: string | undefined): boolean {
  if (value === undefined || value === '') return true;
  const time = Number(value);
  return Number.isFinite(time) && time >= 0;
}

/** `GET …/console?time=`: the chunks newer than this unix-ms epoch; blank or absent = all. */
export const consoleQuerySchema = z.object({
  time: z
    .string()
    .optional()
    .refine(isUnixTimeText, {
      message: 'a unix time in milliseconds',
      params: { code: 'ErrInvalidUnixTime' },
    })
    .transform((value) => (value ? Number(value) : 0)),
});
export type ConsoleQuery = z.output<typeof consoleQuerySchema>;

/**
 * `POST …/console`: the raw text body is the command (PufferPanel; one trailing newline dropped), or JSON
 * `{"command": "…"}`; parsed to the command line itself.
 */
export const consoleCommandBodySchema = z
  .union([z.string(), z.object({ command: z.string() })])
  .transform((body) => (typeof body === 'string' ? body.replace(/\r?\n$/, '') : body.command));
export type ConsoleCommandBody = z.output<typeof consoleCommandBodySchema>;

// ---- websocket: client → daemon ----
export const clientMessageTypes = [
  'start',
  'stop',
  'kill',
  'restart',
  'install',
  'stat',
  'status',
  'replay',
  'console',
  'ping',
  'file',
] as const;
export type ClientMessageType = (typeof clientMessageTypes)[number];

/**
 * PufferPanel v2 clients put fields beside `type` (`{"type":"console","command":"x"}`); Hearth clients may use
 * the `{type, data}` envelope. Both are accepted and `type` is case-insensitive.
 */
export function flattenEnvelope(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const { data, type, ...rest } = input as Record<string, unknown>;
  const inner = typeof data === 'object' && data !== null ? data : {};
  return { ...rest, ...inner, type: typeof type === 'string' ? type.toLowerCase() : type };
}

const bare = <T extends ClientMessageType>(type: T) => z.object({ type: z.literal(type) });

/** Each client message type's shape (after flattenEnvelope); the permission table names them per row. */
export const clientMessageSchemas = {
  start: bare('start'),
  stop: bare('stop'),
  kill: bare('kill'),
  restart: bare('restart'),
  install: bare('install'),
  stat: bare('stat'),
  status: bare('status'),
  replay: z.object({ type: z.literal('replay'), since: z.number().nonnegative().default(0) }),
  console: z.object({ type: z.literal('console'), command: z.string() }),
  ping: bare('ping'),
  file: fileMessageSchema,
} as const satisfies Record<ClientMessageType, z.ZodType>;

const ask = clientMessageSchemas;
export const clientMessageSchema = z.preprocess(
  flattenEnvelope,
  z.discriminatedUnion('type', [
    ask.start,
    ask.stop,
    ask.kill,
    ask.restart,
    ask.install,
    ask.stat,
    ask.status,
    ask.replay,
    ask.console,
    ask.ping,
    ask.file,
  ]),
);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

// ---- websocket: daemon → client ({type, data}) ----
export const consoleEventDataSchema = z.object({
  logs: z.array(z.string()),
  epoch: z.number(),
  /** Bytes of output this subscriber lost because it read too slowly (absent when nothing was lost). */
  dropped: z.number().optional(),
});
export type ConsoleEventData = z.infer<typeof consoleEventDataSchema>;

export const errorEventDataSchema = z.object({
  error: z.object({
    code: z.string(),
    msg: z.string(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorEventData = z.infer<typeof errorEventDataSchema>;

/** Each daemon → client message type's shape; the permission table names the reply a client message gets. */
export const serverMessageSchemas = {
  status: z.object({ type: z.literal('status'), data: statusResponseSchema }),
  stat: z.object({ type: z.literal('stat'), data: statsResponseSchema }),
  console: z.object({ type: z.literal('console'), data: consoleEventDataSchema }),
  error: z.object({ type: z.literal('error'), data: errorEventDataSchema }),
  pong: z.object({ type: z.literal('pong'), data: z.object({}) }),
  'file-list': z.object({ type: z.literal('file-list'), data: fileListSchema }),
  'backup-progress': backupProgressEventSchema,
  'backup-done': backupDoneEventSchema,
  'transfer-progress': transferProgressEventSchema,
  'transfer-done': transferDoneEventSchema,
} as const;

const tell = serverMessageSchemas;
export const serverMessageSchema = z.discriminatedUnion('type', [
  tell.status,
  tell.stat,
  tell.console,
  tell.error,
  tell.pong,
  tell['file-list'],
  tell['backup-progress'],
  tell['backup-done'],
  tell['transfer-progress'],
  tell['transfer-done'],
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

/** Marks daemon-written console lines (the console shows a DAEMON tag on them). */
export const DAEMON_LINE_PREFIX = '[DAEMON] ';
