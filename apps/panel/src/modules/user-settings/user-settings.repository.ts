import type { Db } from '../../db/connect';
import { upsertUserSetting } from '../../db/upsert';

export class UserSettingsRepository {
  constructor(private readonly db: Db) {}

  list(userId: string): Promise<Array<{ key: string; value: string }>> {
    return this.db.kysely
      .selectFrom('user_settings')
      .select(['key', 'value'])
      .where('user_id', '=', userId)
      .orderBy('key')
      .execute();
  }

  async get(userId: string, key: string): Promise<string | undefined> {
    const row = await this.db.kysely
      .selectFrom('user_settings')
      .select('value')
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.value;
  }

  set(userId: string, key: string, value: string): Promise<void> {
    return upsertUserSetting(this.db, userId, key, value);
  }
}
