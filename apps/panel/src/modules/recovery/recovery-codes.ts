import { randomInt } from 'node:crypto';

/** How many codes one set holds (docs/security.md § Two-factor). */
export const RECOVERY_CODE_COUNT = 10;

/** No 0/o, 1/l/i: codes are read off paper and typed back. 31 symbols × 10 ≈ 49 random bits per code. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 10;

/** One new code as shown to the user: `abcde-fghjk`. */
export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/**
 * The form a typed code is hashed in: lower case, without spaces or dashes. Undefined when the text cannot be a
 * recovery code (a six-digit code from the app, say), so login knows which check to make.
 */
export function normalizeRecoveryCode(typed: string): string | undefined {
  const code = typed.toLowerCase().replace(/[\s-]/g, '');
  if (code.length !== LENGTH) return undefined;
  return [...code].every((ch) => ALPHABET.includes(ch)) ? code : undefined;
}
