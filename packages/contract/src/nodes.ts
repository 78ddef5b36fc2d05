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

/**
 * Who opens the node's link (docs/operations.md § Remote node, outbound mode): `inbound` — the panel dials the
 * daemon at its private address; `outbound` — the daemon dials the panel over HTTPS/WSS and needs no open port
 * (a node behind NAT or a firewall). The local node is always `inbound`.
 */
export const nodeLinkModes = ['inbound', 'outbound'] as const;
export const nodeLinkModeSchema = z.enum(nodeLinkModes);
export type NodeLinkMode = z.infer<typeof nodeLinkModeSchema>;

/**
 * The live state of an outbound node's link, as this panel process sees it: whether the node is connected,
 * since when (ms since the epoch) and from which address, the last error, how many times it connected since the
 * panel started, and the panel's SFTP relay for the node (its port, whether it listens, why not).
 */
export const nodeLinkStateSchema = z.object({
  connected: z.boolean(),
  since: z.number().nullable(),
  remoteAddress: z.string().nullable(),
  lastError: z.string().nullable(),
  connects: z.number(),
  sftpRelay: z.object({
    port: z.number(),
    listening: z.boolean(),
    error: z.string().nullable(),
  }),
});
export type NodeLinkState = z.infer<typeof nodeLinkStateSchema>;

export const nodeBodySchema = z.strictObject({
  name: z.string().min(1).max(100),
  publicHost: text.min(1),
  publicPort: port,
  privateHost: text.min(1),
  privatePort: port,
  sftpPort: port,
  /** Default `pinned` for a new node. */
  tlsMode: nodeTlsModeSchema.optional(),
  /**
   * Default `inbound` for a new node. For an `outbound` node `sftpPort` is the port the panel listens on to
   * relay SFTP to it, and the private address is not used (still required, as reference v2 §10 has it).
   */
  link: nodeLinkModeSchema.optional(),
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
  link: nodeLinkModeSchema,
  /** For an `outbound` node, its link's live state; null for an `inbound` one. */
  linkState: nodeLinkStateSchema.nullable().optional(),
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
