import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect';
import type { PasswordResetsTable } from '../../db/types';

export type PasswordResetRow = Selectable<PasswordResetsTable>;

/** "Forgot password" links by token hash (migration 0011). */
export class PasswordResetsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: PasswordResetRow): Promise<void> {
    await this.db.kysely.insertInto('password_resets').values(row).execute();
  }

  findUsable(tokenHash: string, now: number): Promise<PasswordResetRow | undefined> {
    return this.db.kysely
      .selectFrom('password_resets')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /**
   * Uses the link only if it still was usable (exactly one concurrent reset wins), and with it every other
   * open link of the same account: one reset ends them all.
   */
  async claim(row: PasswordResetRow, now: number): Promise<boolean> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('password_resets')
        .set({ used_at: now })
        .where('token_hash', '=', row.token_hash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await trx
        .updateTable('password_resets')
        .set({ used_at: now })
        .where('user_id', '=', row.user_id)
        .where('used_at', 'is', null)
        .execute();
      return true;
    });
  }
}
