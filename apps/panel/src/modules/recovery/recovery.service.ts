import { hashToken } from '../../lib/tokens';
import { newRecoveryCode, normalizeRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes';
import type { RecoveryCodesRepository } from './recovery-codes.repository';

/**
 * Two-factor recovery codes (docs/security.md § Two-factor): a set is made when two-factor is enabled or the
 * owner asks for a new one, shown once, and kept as SHA-256 hashes; each code replaces one app code at login,
 * once. Turning two-factor off (by the owner or an administrator) drops the set.
 */
export class RecoveryCodes {
  constructor(private readonly repo: RecoveryCodesRepository) {}

  /** A new set replaces the old one; the clear codes exist only in this answer. */
  async issue(userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const hashes = codes.map((code) => hashToken(normalizeRecoveryCode(code) ?? code));
    await this.repo.replace(userId, hashes);
    return codes;
  }

  /** Whether `typed` has a recovery code's shape (else it is an app code). */
  isRecoveryCode(typed: string): boolean {
    return normalizeRecoveryCode(typed) !== undefined;
  }

  /** True when `typed` was one of the user's unused codes; it is used up now. */
  async use(userId: string, typed: string): Promise<boolean> {
    const code = normalizeRecoveryCode(typed);
    return code !== undefined && this.repo.claim(userId, hashToken(code));
  }

  left(userId: string): Promise<number> {
    return this.repo.countLeft(userId);
  }

  clear(userId: string): Promise<void> {
    return this.repo.replace(userId, []);
  }
}
