import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect';
import type { OAuthClientsTable } from '../../db/types';

export type ClientRow = Selectable<OAuthClientsTable>;

/** OAuth2 clients; `server_id = ''` marks account clients (server clients come with the servers issue). */
export class ClientsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: ClientRow): Promise<void> {
    await this.db.kysely.insertInto('oauth2_clients').values(row).execute();
  }

  listForUser(userId: string, serverId = ''): Promise<ClientRow[]> {
    return this.db.kysely
      .selectFrom('oauth2_clients')
      .selectAll()
      .where('user_id', '=', userId)
      .where('server_id', '=', serverId)
      .orderBy('created_at')
      .execute();
  }

  findById(id: string): Promise<ClientRow | undefined> {
    return this.db.kysely.selectFrom('oauth2_clients').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async deleteOwned(id: string, userId: string, serverId = ''): Promise<boolean> {
    const result = await this.db.kysely
      .deleteFrom('oauth2_clients')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('server_id', '=', serverId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
