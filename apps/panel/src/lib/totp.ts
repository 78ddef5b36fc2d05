import { Secret, TOTP } from 'otpauth';

/** RFC 6238 defaults every authenticator app understands: SHA1, 6 digits, 30 s steps. */
function totpFor(secret: string, label = 'account', issuer = 'Hearth'): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secret),
  });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/**
 * Checks a code with ±1 step of clock drift and returns the time step it belongs to (so the caller can
 * refuse a step that was already used), or undefined when the code is wrong.
 */
export function verifyTotp(secret: string, code: string, now = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpFor(secret).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return undefined;
  return Math.floor(now / 1000 / 30) + delta;
}

export async function enrolmentQr(secret: string, account: string, issuer: string): Promise<string> {
  // Only enrolment draws a QR code: the encoder loads then, not at start (docs/performance.md § Start-up).
  const { toDataURL } = await import('qrcode');
  return toDataURL(totpFor(secret, account, issuer || 'Hearth').toString(), { width: 256, margin: 1 });
}
