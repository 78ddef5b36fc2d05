import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2 defaults to argon2id (m=19456 KiB, t=2, p=1: the OWASP baseline).
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** A real hash of random bytes, made once: unknown e-mails cost as much time as wrong passwords. */
let dummyHash: Promise<string> | undefined;

/** Verifies against a stored hash; with no hash (unknown user, pending invite) it still spends a check. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hash(randomBytes(16).toString('hex'));
    await verify(await dummyHash, password);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
