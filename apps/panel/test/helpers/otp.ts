import { Secret, TOTP } from 'otpauth';

/** The code an authenticator app would show for `secret`, `offsetSteps` 30 s steps from now. */
export function totpCode(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}
