/**
 * The activity log's wire (docs/activity.md): the typed list of actions the panel records, one entry as the
 * API shows it, and the query of `GET /api/activity` and `GET /api/servers/{id}/activity`.
 */
import { z } from 'zod';
import { pagingSchema } from './accounts';

/** Every action an entry may carry: a dotted code, area first. Adding one means adding it here. */
export const activityActions = [
  'auth.login.success',
  'auth.login.failed',
  'auth.otp.failed',
  'account.password.changed',
  'account.otp.enabled',
  'account.otp.disabled',
  'account.otp.recovery.used',
  'account.otp.recovery.regenerated',
  'account.password.reset.requested',
  'account.password.reset',
  'user.created',
  'user.changed',
  'user.deleted',
  'user.permissions.changed',
  'user.otp.reset',
  'server.created',
  'server.renamed',
  'server.deleted',
  'server.users.changed',
  'server.definition.changed',
  'server.data.changed',
  'server.power.start',
  'server.power.stop',
  'server.power.kill',
  'server.power.restart',
  'server.install',
  'server.reload',
  'server.console.command',
  'server.file.write',
  'server.file.delete',
  'server.file.archive',
  'server.file.extract',
  'server.file.move',
  'server.file.copy',
  'server.file.chmod',
  'server.task.created',
  'server.task.changed',
  'server.task.deleted',
  'server.task.run',
  'server.backup.created',
  'server.backup.restored',
  'server.backup.deleted',
  'server.backup.locked',
  'server.backup.policy',
  'server.transfer.started',
  'server.transfer.finished',
  'server.transfer.failed',
  'settings.changed',
  'template.imported',
  'template.changed',
  'template.deleted',
  'oauth2.client.created',
  'oauth2.client.deleted',
  'node.created',
  'node.deleted',
  'node.online',
  'node.offline',
  // Recorded by a node and pulled from its outbox (node-events.ts, docs/activity.md § Node events).
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
] as const;
export type ActivityAction = (typeof activityActions)[number];

export const activityActorTypes = ['user', 'oauth2', 'task', 'system', 'node'] as const;
export type ActivityActorType = (typeof activityActorTypes)[number];

/** Details are small, flat facts (paths, names, exit codes): never passwords, tokens or file contents. */
export const activityDetailsSchema = z.record(z.string(), z.unknown());
export type ActivityDetails = z.infer<typeof activityDetailsSchema>;

export const activityEntrySchema = z.object({
  id: z.string(),
  time: z.number(),
  actorType: z.enum(activityActorTypes),
  actorId: z.string().nullable(),
  actorLabel: z.string(),
  ip: z.string().nullable(),
  serverId: z.string().nullable(),
  nodeId: z.string().nullable(),
  action: z.string(),
  details: activityDetailsSchema,
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/** The largest page and the largest export: a bigger export is asked for in several time windows. */
export const ACTIVITY_PAGE_MAX = 200;
export const ACTIVITY_EXPORT_MAX = 100_000;

const time = z.coerce.number().int().min(0).max(8_640_000_000_000_000);
export const activityQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(ACTIVITY_PAGE_MAX).default(50),
  server: z.string().min(1).max(64).optional(),
  user: z.string().min(1).max(64).optional(),
  /** An exact action, or a prefix ending in `.` (`server.power.` = every power action). */
  action: z.string().min(1).max(64).optional(),
  since: time.optional(),
  until: time.optional(),
  /** An export instead of a page: every matching entry (up to ACTIVITY_EXPORT_MAX), streamed. */
  format: z.enum(['csv', 'json']).optional(),
});
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

/** The server's activity: the same filters without `server` (the path names it). */
export const serverActivityQuerySchema = activityQuerySchema.omit({ server: true });
export type ServerActivityQuery = z.infer<typeof serverActivityQuerySchema>;

export const activityPageSchema = z.object({
  entries: z.array(activityEntrySchema),
  paging: pagingSchema,
});
export type ActivityPage = z.infer<typeof activityPageSchema>;

/** The CSV export's columns, in order. */
export const activityCsvColumns = [
  'id',
  'time',
  'actorType',
  'actorId',
  'actorLabel',
  'ip',
  'serverId',
  'nodeId',
  'action',
  'details',
] as const;
