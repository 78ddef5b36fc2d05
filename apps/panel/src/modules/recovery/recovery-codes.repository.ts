import type { Db } from '../../db/connect';

/** An account's two-factor recovery codes, by SHA-256 (migration 0010). */
export class RecoveryCodesRepository {
  constructor(private readonly db: Db) {}

  /** The old set (used or not) goes in the same transaction the new one arrives in. */
  async replace(userId: string, hashes: string[], q: Db['kysely'] = this.db.kysely): Promise<void> {
    const now = Date.now();
    await q.deleteFrom('otp_recovery_codes').where('user_id', '=', userId).execute();
    if (hashes.length === 0) return;
    await q
      .insertInto('otp_recovery_codes')
      .values(hashes.map((code_hash) => ({ code_hash, user_id: userId, used_at: null, created_at: now })))
      .execute();
  }

  /** Marks the code used only if it was this user's and unused: exactly one concurrent login wins. */
  async claim(userId: string, hash: string): Promise<boolean> {
    const result = await this.db.kysely
      .updateTable('otp_recovery_codes')
      .set({ used_at: Date.now() })
      .where('code_hash', '=', hash)
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async countLeft(userId: string): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('otp_recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
