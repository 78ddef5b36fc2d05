import { z } from 'zod';
import { localeCodeSchema } from './locales';
import { panelPermissions } from './permissions';
import { emailSchema, passwordSchema, usernameSchema } from './auth';

/** Wire shapes of /api/self, /api/users, invitations and OAuth2 clients. */
/** `pending`: invited and not registered yet; `username` is then the e-mail (the placeholder means nothing). */
export const userViewSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  pending: z.boolean().optional(),
});
export type UserView = z.infer<typeof userViewSchema>;
/** `recoveryCodesLeft`: unused two-factor recovery codes (0 while two-factor is off). */
export const selfViewSchema = userViewSchema.omit({ pending: true }).extend({
  otpEnabled: z.boolean(),
  recoveryCodesLeft: z.number().int().optional(),
});
export type SelfView = z.infer<typeof selfViewSchema>;

/** `{username?, email?, password}` changes info; `{password, newPassword}` changes the password. */
export const selfUpdateBodySchema = z.strictObject({
  username: usernameSchema.optional(),
  email: emailSchema.optional(),
  password: z.string().min(1).max(1024),
  newPassword: passwordSchema.optional(),
});
export type SelfUpdateBody = z.infer<typeof selfUpdateBodySchema>;

export const otpStatusSchema = z.object({ otpEnabled: z.boolean() });
export type OtpStatus = z.infer<typeof otpStatusSchema>;
export const otpEnrolmentSchema = z.object({ secret: z.string(), img: z.string() });
export type OtpEnrolment = z.infer<typeof otpEnrolmentSchema>;
export const otpConfirmBodySchema = z.strictObject({ token: z.string().max(16) });
export type OtpConfirmBody = z.infer<typeof otpConfirmBodySchema>;
/**
 * `?recoveryCodes=true` asks for the new recovery codes in the reply (200); without it the confirmation answers
 * empty (204), as SPEC promises API clients, and the codes can be shown by regenerating them.
 */
export const otpConfirmQuerySchema = z.object({ recoveryCodes: z.enum(['true', 'false']).optional() });
export type OtpConfirmQuery = z.infer<typeof otpConfirmQuerySchema>;
/** One-time recovery codes, shown once: on enabling two-factor and on regenerating them. */
export const otpRecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type OtpRecoveryCodes = z.infer<typeof otpRecoveryCodesSchema>;
/** New recovery codes need the current password and a current code from the app. */
export const otpRecoveryBodySchema = z.strictObject({
  password: z.string().min(1).max(1024),
  token: z.string().max(16),
});
export type OtpRecoveryBody = z.infer<typeof otpRecoveryBodySchema>;

export const panelPermissionFlagsSchema = z.object(
  Object.fromEntries(panelPermissions.map((p) => [p, z.boolean()])) as Record<
    (typeof panelPermissions)[number],
    z.ZodBoolean
  >,
);
export type PanelPermissionFlags = z.infer<typeof panelPermissionFlagsSchema>;
export const permissionsViewSchema = panelPermissionFlagsSchema.extend({
  username: z.string(),
  email: z.string(),
});
export type PermissionsView = z.infer<typeof permissionsViewSchema>;
/** Every flag optional (missing = false); username/email/id may be echoed back and are ignored. */
export const permissionsBodySchema = panelPermissionFlagsSchema
  .partial()
  .extend({
    username: z.string().max(100).optional(),
    email: z.string().max(191).optional(),
    id: z.string().max(64).optional(),
  })
  .strict();
export type PermissionsBody = z.infer<typeof permissionsBodySchema>;

export const usersQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  username: z.string().max(100).optional(),
});
export type UsersQuery = z.infer<typeof usersQuerySchema>;
export const pagingSchema = z.object({
  page: z.number(),
  pageSize: z.number(),
  maxSize: z.number(),
  total: z.number(),
});
export type Paging = z.infer<typeof pagingSchema>;
export const usersPageSchema = z.object({ users: z.array(userViewSchema), paging: pagingSchema });
export type UsersPage = z.infer<typeof usersPageSchema>;
export const createUserBodySchema = z.strictObject({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
});
export type CreateUserBody = z.infer<typeof createUserBodySchema>;
export const updateUserBodySchema = z.strictObject({
  username: usernameSchema.optional(),
  email: emailSchema.optional(),
  password: passwordSchema.optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

/** `locale`: the language of the invitation and of the new account (default: the panel's). */
export const inviteBodySchema = z.strictObject({ email: emailSchema, locale: localeCodeSchema.optional() });
export type InviteBody = z.infer<typeof inviteBodySchema>;
/**
 * What became of the invitation e-mail: `sent` (the provider accepted it), `noProvider` (e-mail is off) or
 * `failed` (the provider refused or was unreachable). `link` is shown once so the inviter can hand it over.
 */
export const inviteMailStatuses = ['sent', 'noProvider', 'failed'] as const;
export type InviteMailStatus = (typeof inviteMailStatuses)[number];
export const inviteCreatedSchema = z.object({
  id: z.string(),
  email: z.string(),
  expiresAt: z.number(),
  link: z.string(),
  mail: z.enum(inviteMailStatuses),
});
export type InviteCreated = z.infer<typeof inviteCreatedSchema>;
export const inviteAcceptBodySchema = z.strictObject({
  token: z.string().min(1).max(256),
  username: usernameSchema,
  password: passwordSchema,
});
export type InviteAcceptBody = z.infer<typeof inviteAcceptBodySchema>;

/** `revoked`: a password change revoked its secret; it mints no more tokens (docs/security.md). */
export const oauthClientViewSchema = z.object({
  client_id: z.string(),
  name: z.string(),
  description: z.string(),
  revoked: z.boolean(),
});
export type OauthClientView = z.infer<typeof oauthClientViewSchema>;
export const oauthClientBodySchema = z.strictObject({
  name: z.string().max(100).default(''),
  description: z.string().max(1000).default(''),
});
export type OauthClientBody = z.infer<typeof oauthClientBodySchema>;
export const oauthClientCreatedSchema = z.object({ id: z.string(), secret: z.string() });
export type OauthClientCreated = z.infer<typeof oauthClientCreatedSchema>;
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number(),
  scope: z.string(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;
