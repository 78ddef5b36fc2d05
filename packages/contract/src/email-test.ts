import { z } from 'zod';

/**
 * `POST /api/settings/email/test` (issue 16 item 19): an administrator sends a test mail to their own address
 * with the saved e-mail settings. Refusals: 503 ErrEmailNotConfigured (provider None), 502 ErrEmailSendFailed
 * (the provider refused or could not be reached), 429 ErrRateLimited.
 */
export const emailTestResultSchema = z.object({
  /** The address the test mail went to: the caller's own. */
  to: z.string(),
});
export type EmailTestResult = z.infer<typeof emailTestResultSchema>;

/** Test mails one administrator may send per minute. */
export const EMAIL_TEST_PER_MINUTE = 5;
