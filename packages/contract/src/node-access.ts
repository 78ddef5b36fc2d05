/**
 * `POST /api/nodes/access` (docs/api.md "Node-only routes"): a daemon asks the panel, with its node credential,
 * what a user may do on one of its servers right now. Tasks run with their owner's access as it is when each
 * step runs (docs/daemon.md § Tasks), so a demoted or removed owner stops a scheduled task.
 */
import { z } from 'zod';
import { serverPermissions } from './permissions';

export const nodeAccessRequestSchema = z.strictObject({
  userId: z.string().min(1).max(64),
  serverId: z.string().min(1).max(64),
});
export type NodeAccessRequest = z.infer<typeof nodeAccessRequestSchema>;

export const nodeAccessSchema = z.object({
  /** Holds the daemon's admin power (the `admin` claim of its tokens): every step, raw commands included. */
  admin: z.boolean(),
  /** The user's flags on that server (every flag for an admin). */
  permissions: z.array(z.enum(serverPermissions)),
});
export type NodeAccess = z.infer<typeof nodeAccessSchema>;
