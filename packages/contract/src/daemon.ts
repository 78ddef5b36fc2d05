/**
 * The daemon wire (SPEC §7 "Daemon proxy" and socket; reference v2 §8–§9): HTTP bodies and websocket
 * messages. Epochs are unix **milliseconds**; console chunk epochs are strictly increasing per server, so
 * `replay {since: lastEpoch}` returns exactly the chunks not seen yet.
 */
import { z } from 'zod';
import { variableSchema } from './template';
import { fileListSchema, fileMessageSchema } from './files';

// ---- HTTP ----
export const statusResponseSchema = z.object({ running: z.boolean(), installing: z.boolean() });
export type StatusResponse = z.infer<typeof statusResponseSchema>;

export const statsResponseSchema = z.object({ cpu: z.number(), memory: z.number() });
export type StatsResponse = z.infer<typeof statsResponseSchema>;

/** `logs` joins the chunks newer than `?time=`; `epoch` is the newest chunk's epoch (or now if none). */
export const consoleResponseSchema = z.object({ logs: z.string(), epoch: z.number() });
export type ConsoleResponse = z.infer<typeof consoleResponseSchema>;

export const serverDataResponseSchema = z.object({ data: z.record(z.string(), variableSchema) });
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

/** `?wait=true|false` (parsed, not presence-based); absent means false. */
export const waitQuerySchema = z.object({
  wait: z.enum(['true', 'false', '1', '0', '']).optional(),
});
export type WaitQuery = z.infer<typeof waitQuerySchema>;

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
export const clientMessageSchema = z.preprocess(
  flattenEnvelope,
  z.discriminatedUnion('type', [
    bare('start'),
    bare('stop'),
    bare('kill'),
    bare('restart'),
    bare('install'),
    bare('stat'),
    bare('status'),
    bare('ping'),
    z.object({ type: z.literal('replay'), since: z.number().nonnegative().default(0) }),
    z.object({ type: z.literal('console'), command: z.string() }),
    fileMessageSchema,
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

export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('status'), data: statusResponseSchema }),
  z.object({ type: z.literal('stat'), data: statsResponseSchema }),
  z.object({ type: z.literal('console'), data: consoleEventDataSchema }),
  z.object({ type: z.literal('error'), data: errorEventDataSchema }),
  z.object({ type: z.literal('pong'), data: z.object({}) }),
  z.object({ type: z.literal('file-list'), data: fileListSchema }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

/** Marks daemon-written console lines (SPEC §2: the console shows a DAEMON tag on them). */
export const DAEMON_LINE_PREFIX = '[DAEMON] ';
