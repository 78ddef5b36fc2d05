import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect';
import type { InvitesTable } from '../../db/types';

export type InviteRow = Selectable<InvitesTable>;

export class InvitesRepository {
  constructor(private readonly db: Db) {}

  /**
   * The invitation row and, when the inviter chose one, the account's `locale` setting. `q`: the transaction
   * creating the pending account (a brand-new account has no settings yet, so a plain insert).
   */
  async insert(row: InviteRow, locale: string | undefined, q: Db['kysely'] = this.db.kysely): Promise<void> {
    await q.insertInto('invites').values(row).execute();
    if (locale) {
      await q
        .insertInto('user_settings')
        .values({ user_id: row.user_id, key: 'locale', value: locale })
        .execute();
    }
  }

  findUsable(tokenHash: string, now: number): Promise<InviteRow | undefined> {
    return this.db.kysely
      .selectFrom('invites')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /**
   * Marks the invite used only if it still was unused: exactly one concurrent accept wins. `q`: the transaction
   * activating the account, so a failed activation leaves the invitation usable.
   */
  async claim(tokenHash: string, now: number, q: Db['kysely'] = this.db.kysely): Promise<boolean> {
    const result = await q
      .updateTable('invites')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
