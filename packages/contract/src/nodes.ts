/**
 * Nodes on the wire (SPEC §3 Node, §7 Nodes; reference v2 §10). Ports are numbers. Domain rules (host is an
 * IP or FQDN, ports 1–65535, SFTP port distinct) are checked by the panel's nodes service so the errors
 * carry their catalogue metadata ({min,max}, {other}).
 */
import { z } from 'zod';

const text = z.string().max(191);
const port = z.number().int();

export const nodeBodySchema = z.strictObject({
  name: z.string().min(1).max(100),
  publicHost: text.min(1),
  publicPort: port,
  privateHost: text.min(1),
  privatePort: port,
  sftpPort: port,
});
export type NodeBody = z.infer<typeof nodeBodySchema>;

/** PUT is partial: the fields given replace the stored ones. */
export const nodeUpdateSchema = nodeBodySchema.partial();
export type NodeUpdate = z.infer<typeof nodeUpdateSchema>;

export const nodeViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  publicHost: z.string(),
  publicPort: z.number(),
  privateHost: z.string(),
  privatePort: z.number(),
  sftpPort: z.number(),
  isLocal: z.boolean(),
  /** In lists: the panel's cached probe of the node (never slows the list; `unknown` until first answer). */
  status: z.enum(['online', 'offline', 'unknown']).optional(),
});
export type NodeView = z.infer<typeof nodeViewSchema>;

/**
 * Deployment instructions: `config` is the complete file for `hearth daemon --config node.json`;
 * `clientId`/`clientSecret` are the node credential. Only the secret's hash is kept, so `clientSecret` is in
 * the answers that issue one (`POST /api/nodes`, `POST /api/nodes/{id}/deployment/rotate`), not in GET.
 */
export const nodeDeploymentSchema = z.object({
  clientId: z.string(),
  clientSecret: z.string().optional(),
  publicKey: z.string(),
  config: z.record(z.string(), z.unknown()),
});
export type NodeDeployment = z.infer<typeof nodeDeploymentSchema>;

/** `POST /api/nodes`: the node, plus its deployment with the one-time secret. */
export const nodeCreatedSchema = nodeViewSchema.extend({ deployment: nodeDeploymentSchema });

/**
 * `GET /api/nodes/choices` (createServers): what the Add Server screen needs to pick a node, for creators who
 * may not view nodes. `environments` comes from the cached probe; absent while the node's features are unknown.
 */
export const nodeChoiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(['online', 'offline', 'unknown']),
  environments: z.array(z.string()).optional(),
});
export type NodeChoice = z.infer<typeof nodeChoiceSchema>;
