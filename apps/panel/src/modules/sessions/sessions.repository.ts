import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect';
import type { SessionsTable } from '../../db/types';

export type SessionRow = Selectable<SessionsTable>;

export class SessionsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: SessionRow): Promise<void> {
    await this.db.kysely.insertInto('sessions').values(row).execute();
  }

  findLive(tokenHash: string, now: number): Promise<SessionRow | undefined> {
    return this.db.kysely
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async shorten(tokenHash: string, expiresAt: number): Promise<void> {
    await this.db.kysely
      .updateTable('sessions')
      .set({ expires_at: expiresAt })
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', expiresAt)
      .execute();
  }

  async delete(tokenHash: string): Promise<void> {
    await this.db.kysely.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }

  /** Ends a user's sessions, optionally keeping one (password change keeps the caller's). */
  async deleteForUser(userId: string, keepTokenHash?: string): Promise<void> {
    let query = this.db.kysely.deleteFrom('sessions').where('user_id', '=', userId);
    if (keepTokenHash) query = query.where('token_hash', '!=', keepTokenHash);
    await query.execute();
  }

  async deleteForClient(clientId: string): Promise<void> {
    await this.db.kysely.deleteFrom('sessions').where('client_id', '=', clientId).execute();
  }

  async deleteExpired(now: number): Promise<void> {
    await this.db.kysely.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  }
}
