import { z } from 'zod';

/** Field rules shared by register, setup, invite, users and self, each with its catalogue code. */
export const usernameSchema = z
  .string()
  .max(100)
  .refine((v) => /^[A-Za-z0-9_-]{3,}$/.test(v), { params: { code: 'ErrUsernameRequirements' } });
export type Username = z.infer<typeof usernameSchema>;
export const passwordSchema = z
  .string()
  .max(1024)
  .refine((v) => v.length >= 8, { params: { code: 'ErrPasswordRequirements' } });
export type Password = z.infer<typeof passwordSchema>;
export const emailSchema = z.email().max(191);
export type Email = z.infer<typeof emailSchema>;

export const loginBodySchema = z.strictObject({ email: z.string().max(191), password: z.string().max(1024) });
export type LoginBody = z.infer<typeof loginBodySchema>;
export const otpBodySchema = z.strictObject({ token: z.string().max(16) });
export type OtpBody = z.infer<typeof otpBodySchema>;
export const registerBodySchema = z.strictObject({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
});
export type RegisterBody = z.infer<typeof registerBodySchema>;
export const setupBodySchema = registerBodySchema.extend({ token: z.string().min(1).max(256) });
export type SetupBody = z.infer<typeof setupBodySchema>;
/** The setup page asks whether its link still works before the newcomer types anything. */
export const setupCheckBodySchema = z.object({ token: z.string().min(1).max(256) });
export type SetupCheckBody = z.infer<typeof setupCheckBodySchema>;

/** "Forgot password": answered the same whether or not the address has an account (docs/security.md). */
export const passwordForgotBodySchema = z.strictObject({ email: z.string().max(191) });
export type PasswordForgotBody = z.infer<typeof passwordForgotBodySchema>;
export const passwordResetBodySchema = z.strictObject({
  token: z.string().min(1).max(256),
  password: passwordSchema,
});
export type PasswordResetBody = z.infer<typeof passwordResetBodySchema>;

/** A logged-in answer; the same token is also set as the `hearth_session` cookie. */
export const sessionResponseSchema = z.object({ session: z.string(), scopes: z.array(z.string()) });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
/** Login with two-factor on answers `otpNeeded` first; `POST /auth/otp` then gives the session. */
export const loginResponseSchema = z.union([sessionResponseSchema, z.object({ otpNeeded: z.literal(true) })]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;
/** Registration also names the token `token`, as PufferPanel's register answer does. */
export const registerResponseSchema = sessionResponseSchema.extend({ token: z.string() });
export type RegisterResponse = z.infer<typeof registerResponseSchema>;
