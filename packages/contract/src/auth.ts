import { z } from 'zod';

/** Field rules shared by register, setup, invite, users and self (SPEC §5), each with its catalogue code. */
export const usernameSchema = z
  .string()
  .max(100)
  .refine((v) => /^[A-Za-z0-9_-]{3,}$/.test(v), { params: { code: 'ErrUsernameRequirements' } });
export const passwordSchema = z
  .string()
  .max(1024)
  .refine((v) => v.length >= 8, { params: { code: 'ErrPasswordRequirements' } });
export const emailSchema = z.email().max(191);

export const loginBody = z.strictObject({ email: z.string().max(191), password: z.string().max(1024) });
export const otpBody = z.strictObject({ token: z.string().max(16) });
export const registerBody = z.strictObject({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
});
export const setupBody = registerBody.extend({ token: z.string().min(1).max(256) });

/** A logged-in answer; the same token is also set as the `hearth_session` cookie. */
export const sessionResponse = z.object({ session: z.string(), scopes: z.array(z.string()) });
export type SessionResponse = z.infer<typeof sessionResponse>;
export const loginResponse = z.union([sessionResponse, z.object({ otpNeeded: z.literal(true) })]);
