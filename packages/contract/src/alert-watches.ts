/**
 * What a node watches for the panel's alert rules (docs/alerts.md § Where conditions are evaluated): the
 * conditions only a node can see as they happen — CPU, memory or disk above a threshold for N minutes, a server
 * empty for N minutes, a live console line matching a pattern — are handed to the node that runs the servers
 * (`PUT /daemon/alert-watches`, the panel's own token). The node evaluates them on its samples and console output
 * and reports through its outbox (`server.threshold.reached`, `server.console.matched`); the panel's alert engine
 * then checks the event against the rule as it stands and sends the alert. The node answers the `version` it holds
 * in each outbox page (`watches`), so the panel pushes again after a rule change or a daemon restart.
 */
import { z } from 'zod';
import { alertConditionSchema, type AlertConditionType } from './alerts';

/** The conditions a node evaluates (the others come from events the node or the panel already records). */
export const watchedConditionTypes = [
  'cpuAbove',
  'memoryAbove',
  'diskAbove',
  'serverEmpty',
  'consoleMatch',
] as const satisfies readonly AlertConditionType[];
export type WatchedConditionType = (typeof watchedConditionTypes)[number];

/** Watches per node at most (global ones plus each server's): a bound on the node's memory and work. */
export const ALERT_WATCHES_MAX = 5_000;

export const alertWatchSchema = z.strictObject({
  /** The rule's id: the node's event names it, so the panel alerts that rule only. */
  rule: z.string().min(1).max(64),
  condition: alertConditionSchema.refine(
    (c) => (watchedConditionTypes as readonly string[]).includes(c.type),
    { params: { code: 'ErrFieldInvalid' } },
  ),
});
export type AlertWatch = z.infer<typeof alertWatchSchema>;

export const alertWatchesSchema = z.strictObject({
  /** Chosen by the panel (a hash of the rest); the node answers it in every outbox page. */
  version: z.string().min(1).max(64),
  /** Global rules: every server of the node. */
  all: z.array(alertWatchSchema).max(ALERT_WATCHES_MAX),
  /** Rules of one server, by server id. */
  servers: z.record(z.string().max(64), z.array(alertWatchSchema).max(ALERT_WATCHES_MAX)),
});
export type AlertWatches = z.infer<typeof alertWatchesSchema>;
