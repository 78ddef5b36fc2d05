/**
 * What a node measures about its servers beyond the live stats: player counts (from a template's `query`), the
 * downsampled metric history behind the Statistics tab's ranges, and the node-wide player summary the panel's
 * server list reads from its cache (docs/daemon.md § Metrics and history, docs/api.md § Statistics).
 */
import { z } from 'zod';

/** Players on a server as its game answers a query; absent wherever the game is not known or not answering. */
export const playerCountSchema = z.object({
  online: z.number().int().nonnegative(),
  max: z.number().int().nonnegative(),
});
export type PlayerCount = z.infer<typeof playerCountSchema>;

/** The ranges of `GET …/history`; `1h` and `24h` come from 1-minute points, `7d` and `30d` from 15-minute points. */
export const historyRanges = ['1h', '24h', '7d', '30d'] as const;
export type HistoryRange = (typeof historyRanges)[number];

/** Seconds between two points and how many points each range answers with. */
export const historyRangeSteps: Readonly<Record<HistoryRange, { stepSeconds: number; points: number }>> = {
  '1h': { stepSeconds: 60, points: 60 },
  '24h': { stepSeconds: 60, points: 1440 },
  '7d': { stepSeconds: 900, points: 672 },
  '30d': { stepSeconds: 900, points: 2880 },
};

/** `GET …/history?range=`: absent means `1h`; anything else but the four ranges is ErrFieldInvalid. */
export const historyQuerySchema = z.object({ range: z.enum(historyRanges).default('1h') });
export type HistoryQuery = z.output<typeof historyQuerySchema>;

/**
 * The points of one range, oldest first, as columns of equal length (what a chart plots): `times` are the
 * points' starts in unix milliseconds, every `stepSeconds`, ending at the newest step. A `null` is a step without
 * a sample (the daemon was not running, or the server did not exist yet); `players` and `maxPlayers` are `null`
 * where the count was not known. CPU is percent of one core, memory and disk bytes.
 */
export const historyResponseSchema = z.object({
  range: z.enum(historyRanges),
  stepSeconds: z.number().int().positive(),
  times: z.array(z.number()),
  cpu: z.array(z.number().nullable()),
  memory: z.array(z.number().nullable()),
  disk: z.array(z.number().nullable()),
  players: z.array(z.number().nullable()),
  maxPlayers: z.array(z.number().nullable()),
});
export type HistoryResponse = z.infer<typeof historyResponseSchema>;

/**
 * One server's state in the node's summary: running or not, and its latest sampled CPU (percent of one core) and
 * memory (bytes), which are 0 while it is stopped.
 */
export const serverLiveSchema = z.object({
  running: z.boolean(),
  cpu: z.number().nonnegative(),
  memory: z.number().nonnegative(),
});
export type ServerLive = z.infer<typeof serverLiveSchema>;

/**
 * `GET /daemon/players` (node admin): the known player counts of this node's servers, by server id, and (`live`)
 * every server's state, so the panel's server list shows status, CPU and memory with one call per node.
 * `live` is absent from older daemons.
 */
export const nodePlayersSchema = z.object({
  servers: z.record(z.string(), playerCountSchema),
  live: z.record(z.string(), serverLiveSchema).optional(),
});
export type NodePlayers = z.infer<typeof nodePlayersSchema>;

/** `GET /metrics`: Prometheus's text exposition format (prom-client's registry output). */
export const metricsTextSchema = z.string();
export type MetricsText = z.infer<typeof metricsTextSchema>;
