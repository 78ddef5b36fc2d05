/**
 * Nodes on the wire (reference v2 §10). Ports are numbers. Domain rules (host is an
 * IP or FQDN, ports 1–65535, SFTP port distinct) are checked by the panel's nodes service so the errors
 * carry their catalogue metadata ({min,max}, {other}).
 */
import { z } from 'zod';

const text = z.string().max(191);
const port = z.number().int();

/**
 * How the panel reaches the node's daemon (docs/security.md § Node link): `pinned` — HTTPS with the certificate
 * the panel generated for the node, verified by its SHA-256 fingerprint; `ca` — HTTPS with the operator's
 * certificate, verified against the system CAs and the node's private host; `plain` — HTTP, for a loopback
 * node or when an administrator chooses it.
 */
export const nodeTlsModes = ['pinned', 'ca', 'plain'] as const;
export const nodeTlsModeSchema = z.enum(nodeTlsModes);
export type NodeTlsMode = z.infer<typeof nodeTlsModeSchema>;

export const nodeBodySchema = z.strictObject({
  name: z.string().min(1).max(100),
  publicHost: text.min(1),
  publicPort: port,
  privateHost: text.min(1),
  privatePort: port,
  sftpPort: port,
  /** Default `pinned` for a new node. */
  tlsMode: nodeTlsModeSchema.optional(),
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
  tlsMode: nodeTlsModeSchema,
  /**
   * SHA-256 fingerprint (`AB:CD:…`) of the certificate the panel generated for the node, or null for a node
   * created before the link was encrypted: it needs a rotated deployment (`tlsNeedsRotate`).
   */
  tlsFingerprint: z.string().nullable(),
  /** A `pinned` node without a certificate yet: the panel reaches it over plain HTTP until it is redeployed. */
  tlsNeedsRotate: z.boolean(),
  /** In lists: the panel's cached probe of the node (never slows the list; `unknown` until first answer). */
  status: z.enum(['online', 'offline', 'unknown']).optional(),
});
export type NodeView = z.infer<typeof nodeViewSchema>;

/**
 * Deployment instructions: `config` is the complete file for `hearth daemon --config node.json` (with the node
 * credential at `sftp.clientSecret` and, for a `pinned` node, its TLS certificate and key at `tls`);
 * `clientId`/`clientSecret` are the node credential. The panel keeps the secret and the key sealed at rest, so
 * GET shows the same complete file again to holders of deployNodes (docs/security.md § Node link).
 * `clientSecret` is absent only for a node created before secrets were kept (it needs a rotation).
 */
export const nodeDeploymentSchema = z.object({
  clientId: z.string(),
  clientSecret: z.string().optional(),
  /** The pinned certificate's SHA-256 fingerprint (compare it with the daemon's start-up line). */
  tlsFingerprint: z.string().nullable(),
  publicKey: z.string(),
  config: z.record(z.string(), z.unknown()),
  /**
   * The one-step install on a fresh Debian machine, as shell commands run as root in order: write `config` to
   * /etc/hearth/node.json, fetch the panel's package (`GET /api/nodes/{id}/package` with the node credential),
   * install it, enable hearth-daemon.service (docs/operations.md § Remote node). Absent for the local node and
   * for a node without a kept secret.
   */
  installSteps: z.array(z.string()).optional(),
});
export type NodeDeployment = z.infer<typeof nodeDeploymentSchema>;

/** `POST /api/nodes`: the node, plus its deployment with the one-time secret. */
export const nodeCreatedSchema = nodeViewSchema.extend({ deployment: nodeDeploymentSchema });
export type NodeCreated = z.infer<typeof nodeCreatedSchema>;

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
