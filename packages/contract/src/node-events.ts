/**
 * The node outbox's wire (docs/activity.md § Node events, docs/adr/0012-node-event-outbox.md): events only a
 * node sees (crashes, automatic restarts, SFTP sessions and their writes, task runs, scheduled backups) wait in
 * the daemon's outbox until the panel pulls them (`GET /daemon/events`), records them in its activity log and
 * acknowledges them (`POST /daemon/events/ack`). Both routes take only the panel's own node token: its subject
 * is {@link DAEMON_TOKEN_PANEL_SUBJECT}, which is never a user id, so no user's token reads the log of others.
 */
import { z } from 'zod';
import { activityDetailsSchema, type ActivityAction } from './activity';

/** The `sub` of the tokens the panel signs for itself (node probes, the outbox pull), never a user's id. */
export const DAEMON_TOKEN_PANEL_SUBJECT = 'panel';

/** The actions a node records; each is in the contract's `activityActions` too. */
export const nodeEventActions = [
  'server.crashed',
  'server.restarted.auto',
  'sftp.session.opened',
  'sftp.session.closed',
  'sftp.file.write',
  'sftp.file.delete',
  'sftp.file.rename',
  'sftp.file.mkdir',
  'sftp.file.setstat',
  'server.task.finished',
  'server.backup.scheduled.created',
  'server.backup.scheduled.failed',
  'server.backup.failed',
  'server.backup.restore.failed',
  'node.events.dropped',
  'server.threshold.reached',
  'server.console.matched',
] as const satisfies readonly ActivityAction[];
export type NodeEventAction = (typeof nodeEventActions)[number];

/** Who did it, as the node knows: the SFTP user (id from the panel's login answer), a task, or the node. */
export const nodeEventActorSchema = z.object({
  type: z.enum(['user', 'task', 'system']),
  id: z.string().max(64).nullable(),
  label: z.string().max(191),
});
export type NodeEventActor = z.infer<typeof nodeEventActorSchema>;

export const nodeEventSchema = z.object({
  /** Increases by one per event, across daemon restarts, for the life of the outbox. */
  seq: z.number().int().min(1),
  time: z.number().int(),
  /** A {@link NodeEventAction}; a string on the wire so a newer node's action does not fail a whole page. */
  action: z.string().max(64),
  serverId: z.string().max(64).nullable(),
  actor: nodeEventActorSchema,
  ip: z.string().max(64).nullable(),
  details: activityDetailsSchema,
});
export type NodeEvent = z.infer<typeof nodeEventSchema>;

export const NODE_EVENTS_PAGE_MAX = 500;

export const nodeEventsQuerySchema = z.strictObject({
  /** Events with a larger sequence number; 0 = from the oldest the node still holds. */
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(NODE_EVENTS_PAGE_MAX).default(200),
});
export type NodeEventsQuery = z.infer<typeof nodeEventsQuerySchema>;

export const nodeEventsPageSchema = z.object({
  /** The outbox's id: a new one (a wiped data folder) restarts the sequence, so the panel's cursor resets. */
  outbox: z.string(),
  events: z.array(nodeEventSchema),
  /** The newest sequence number handed out so far (0 = none yet). */
  last: z.number().int().min(0),
  /**
   * The version of the alert watches the node holds (alert-watches.ts), null when it holds none; absent from
   * daemons older than the watches, which the panel then leaves alone.
   */
  watches: z.string().nullable().optional(),
});
export type NodeEventsPage = z.infer<typeof nodeEventsPageSchema>;

export const nodeEventsAckSchema = z.strictObject({
  outbox: z.string().min(1).max(64),
  /** Every event up to this one is recorded: the node may forget them. */
  seq: z.number().int().min(0),
});
export type NodeEventsAck = z.infer<typeof nodeEventsAckSchema>;
