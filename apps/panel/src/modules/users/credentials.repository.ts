import type { Db } from '../../db/connect';
import type { UserRow, UsersRepository } from './users.repository';

/**
 * A password change and everything it ends, in one transaction (docs/security.md § Sessions and tokens): the
 * account's sessions (but the one that made the change, when given) and its OAuth2 client secrets, account and
 * server clients alike. Revoked clients stay listed (`revoked_at`) so the owner sees what needs a new client;
 * their secrets no longer mint tokens and their tokens identify nobody. Either all of it happens or none.
 */
export class CredentialsRepository {
  constructor(
    private readonly db: Db,
    private readonly users: UsersRepository,
  ) {}

  async changePassword(
    userId: string,
    changes: Partial<Omit<UserRow, 'id' | 'created_at'>> & { password_hash: string },
    keepTokenHash?: string,
  ): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await this.users.update(userId, changes, trx);
      await trx
        .updateTable('oauth2_clients')
        .set({ revoked_at: Date.now() })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
      let sessions = trx.deleteFrom('sessions').where('user_id', '=', userId);
      if (keepTokenHash) sessions = sessions.where('token_hash', '!=', keepTokenHash);
      await sessions.execute();
    });
  }
}
