import type { Db } from './connect';

/**
 * Insert-or-update on one key, the same on every dialect: `ON CONFLICT … DO UPDATE` on SQLite and
 * PostgreSQL, `ON DUPLICATE KEY UPDATE` on MySQL/MariaDB. Atomic, so concurrent writers cannot collide.
 */
export async function upsertSetting(db: Db, key: string, value: string): Promise<void> {
  const insert = db.kysely.insertInto('settings').values({ key, value });
  if (db.dialect === 'mysql') await insert.onDuplicateKeyUpdate({ value }).execute();
  else await insert.onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
}

export async function upsertUserSetting(db: Db, userId: string, key: string, value: string): Promise<void> {
  const insert = db.kysely.insertInto('user_settings').values({ user_id: userId, key, value });
  if (db.dialect === 'mysql') await insert.onDuplicateKeyUpdate({ value }).execute();
  else await insert.onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({ value })).execute();
}
