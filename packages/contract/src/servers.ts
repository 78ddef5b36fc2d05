/** Servers on the wire (Server user; reference v2 §7). */
import { z } from 'zod';
import { serverPermissions } from './permissions';
import { inviteCreatedSchema, pagingSchema } from './accounts';
import { templateIdSchema } from './templates-api';
import { playerCountSchema, serverLiveSchema } from './telemetry';

/** A server name is not empty and has no special characters. */
export const serverNameSchema = z
  .string()
  .min(1)
  .max(100)
  .refine((v) => /^[A-Za-z0-9 _.-]+$/.test(v), { params: { code: 'ErrFieldHasURICharacters' } });
export type ServerName = z.infer<typeof serverNameSchema>;

/**
 * `POST /api/servers`, in one of two forms (docs/api.md § Servers):
 * - from a stored template (everyone; the only form for non-admins): `template` (its id), `name`, `node`,
 *   `users`, `environment: {type}` (one of the template's environments) and `data: {name: {value}}` with the
 *   values of the variables the caller may set. The panel builds the definition from the stored template.
 * - a whole definition (PufferPanel v2; admins and editServerAdmin only, as it carries raw commands): the
 *   template object plus `name`, `node`, `users`, `environment`, `data`. Everything but `node` and `users` is
 *   the definition sent to the daemon, which validates it.
 */
export const createServerBodySchema = z.looseObject({
  name: serverNameSchema,
  node: z.union([z.string().min(1).max(64), z.number().int().transform(String)]),
  users: z.array(z.email()).max(100).default([]),
  environment: z.looseObject({ type: z.string().min(1) }),
  type: z.string().max(100).optional(),
  template: templateIdSchema.optional(),
  data: z.record(z.string().max(100), z.unknown()).optional(),
});
export type CreateServerBody = z.infer<typeof createServerBodySchema>;

/** `POST /api/servers`: the new server's id. */
export const serverCreatedSchema = z.object({ id: z.string() });
export type ServerCreated = z.infer<typeof serverCreatedSchema>;

/**
 * `DELETE /api/servers/{id}` answers 204, or 200 with `warning` when the panel forgot the server but its node
 * could not delete the files (they stay on the node).
 */
export const serverDeletedSchema = z.object({ warning: z.string().optional() });
export type ServerDeleted = z.infer<typeof serverDeletedSchema>;

/** The keys of the template form; any other key is a definition field (an administrator's power). */
export const templateCreateKeys = ['name', 'node', 'users', 'environment', 'template', 'data'] as const;

/** One variable value in the template form: `{value}` only; the variable's type and flags come from the template. */
export const createVariableValueSchema = z.strictObject({ value: z.unknown() });
export type CreateVariableValue = z.infer<typeof createVariableValueSchema>;

export const serverNodeViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  publicHost: z.string(),
  publicPort: z.number(),
  sftpPort: z.number(),
  /** The panel's cached probe of the node (lists never wait on a slow node). */
  status: z.enum(['online', 'offline', 'unknown']).optional(),
});
export type ServerNodeView = z.infer<typeof serverNodeViewSchema>;

export const serverViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  node: serverNodeViewSchema,
  ip: z.string(),
  port: z.number().nullable(),
  /** The server ip unless empty or `{ip}`, else the node's publicHost; `:port` when there is one. */
  address: z.string(),
  /** `unknown` when the server's node is not known to be online; absent otherwise (ask /status or the socket). */
  status: z.literal('unknown').optional(),
  /** Players online and slots, from the panel's cache of the node's counts; absent when not known. */
  players: playerCountSchema.optional(),
  /** Running, CPU and memory from the panel's cache of the node's summary (list only); absent when not known. */
  live: serverLiveSchema.optional(),
});
export type ServerView = z.infer<typeof serverViewSchema>;

export const serversQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  /** Only servers whose name contains this (any case); empty means all. */
  q: z.string().trim().max(100).optional(),
});
export type ServersQuery = z.infer<typeof serversQuerySchema>;

export const serversPageSchema = z.object({ servers: z.array(serverViewSchema), paging: pagingSchema });
export type ServersPage = z.infer<typeof serversPageSchema>;

const flags = Object.fromEntries(serverPermissions.map((p) => [p, z.boolean()])) as Record<
  (typeof serverPermissions)[number],
  z.ZodBoolean
>;
/** The caller's flags on one server (`GET /api/servers/{id}?perms`), plus whether they may delete it. */
export const serverPermissionsViewSchema = z.object({ ...flags, deleteServer: z.boolean() });
export type ServerPermissionsView = z.infer<typeof serverPermissionsViewSchema>;

/**
 * What the server's node can do, from the panel's cached probe of `GET /daemon/features` (never waited on
 * for long). Everything is off while the node has not answered: the web hides the Tasks tab until `tasks`.
 */
export const serverFeaturesSchema = z.object({
  tasks: z.boolean(),
  docker: z.boolean(),
  environments: z.array(z.string()),
});
export type ServerFeatures = z.infer<typeof serverFeaturesSchema>;

export const serverDetailSchema = z.object({
  server: serverViewSchema.extend({ features: serverFeaturesSchema }),
  /** Present when asked for with `?perms`. */
  permissions: serverPermissionsViewSchema.optional(),
});
export type ServerDetail = z.infer<typeof serverDetailSchema>;

/** `PUT /api/servers/{id}/user/{email}`: the flags to grant (absent = false). */
export const serverUserBodySchema = z.strictObject(
  Object.fromEntries(serverPermissions.map((p) => [p, z.boolean().optional()])) as Record<
    (typeof serverPermissions)[number],
    z.ZodOptional<z.ZodBoolean>
  >,
);
export type ServerUserBody = z.infer<typeof serverUserBodySchema>;
/**
 * A grant to an unknown e-mail invites it: the answer (200 instead of 204) says whether the invitation mail went
 * out and carries its link, shown once (docs/security.md § Invitations).
 */
export const serverUserInvitedSchema = z.object({ invitation: inviteCreatedSchema });
export type ServerUserInvited = z.infer<typeof serverUserInvitedSchema>;
/** `pending`: an invited account that has not registered yet; its `username` is then the e-mail. */
export const serverUserViewSchema = z.object({
  email: z.string(),
  username: z.string(),
  pending: z.boolean().optional(),
  ...flags,
});
export type ServerUserView = z.infer<typeof serverUserViewSchema>;
