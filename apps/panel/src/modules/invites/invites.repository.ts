import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect';
import type { InvitesTable } from '../../db/types';

export type InviteRow = Selectable<InvitesTable>;

export class InvitesRepository {
  constructor(private readonly db: Db) {}

  async insert(row: InviteRow): Promise<void> {
    await this.db.kysely.insertInto('invites').values(row).execute();
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

  /** Marks the invite used only if it still was unused: exactly one concurrent accept wins. */
  async claim(tokenHash: string, now: number): Promise<boolean> {
    const result = await this.db.kysely
      .updateTable('invites')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
