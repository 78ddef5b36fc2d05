import { z } from 'zod';
import { localeSchema } from './locales';
import { panelPermissions } from './permissions';
import { emailSchema, passwordSchema, usernameSchema } from './auth';

/** Wire shapes of /api/self, /api/users, invitations and OAuth2 clients (SPEC §7). */
export const userView = z.object({ id: z.string(), username: z.string(), email: z.string() });
export const selfView = userView.extend({ otpEnabled: z.boolean() });

/** `{username?, email?, password}` changes info; `{password, newPassword}` changes the password. */
export const selfUpdateBody = z.strictObject({
  username: usernameSchema.optional(),
  email: emailSchema.optional(),
  password: z.string().min(1).max(1024),
  newPassword: passwordSchema.optional(),
});

export const otpStatus = z.object({ otpEnabled: z.boolean() });
export const otpEnrolment = z.object({ secret: z.string(), img: z.string() });
export const otpConfirmBody = z.strictObject({ token: z.string().max(16) });

export const panelPermissionFlags = z.object(
  Object.fromEntries(panelPermissions.map((p) => [p, z.boolean()])) as Record<
    (typeof panelPermissions)[number],
    z.ZodBoolean
  >,
);
export const permissionsView = panelPermissionFlags.extend({ username: z.string(), email: z.string() });
/** Every flag optional (missing = false); username/email/id may be echoed back and are ignored. */
export const permissionsBody = panelPermissionFlags
  .partial()
  .extend({
    username: z.string().max(100).optional(),
    email: z.string().max(191).optional(),
    id: z.string().max(64).optional(),
  })
  .strict();

export const usersQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  username: z.string().max(100).optional(),
});
export const paging = z.object({
  page: z.number(),
  pageSize: z.number(),
  maxSize: z.number(),
  total: z.number(),
});
export const usersPage = z.object({ users: z.array(userView), paging });
export const createUserBody = z.strictObject({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
});
export const updateUserBody = z.strictObject({
  username: usernameSchema.optional(),
  email: emailSchema.optional(),
  password: passwordSchema.optional(),
});

/** `locale`: the language of the invitation and of the new account (default: the panel's). */
export const inviteBody = z.strictObject({ email: emailSchema, locale: localeSchema.optional() });
export const inviteCreated = z.object({ id: z.string(), email: z.string(), expiresAt: z.number() });
export const inviteAcceptBody = z.strictObject({
  token: z.string().min(1).max(256),
  username: usernameSchema,
  password: passwordSchema,
});

/** `revoked`: a password change revoked its secret; it mints no more tokens (docs/security.md). */
export const oauthClientView = z.object({
  client_id: z.string(),
  name: z.string(),
  description: z.string(),
  revoked: z.boolean(),
});
export const oauthClientBody = z.strictObject({
  name: z.string().max(100).default(''),
  description: z.string().max(1000).default(''),
});
export const oauthClientCreated = z.object({ id: z.string(), secret: z.string() });
export const tokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number(),
  scope: z.string(),
});
