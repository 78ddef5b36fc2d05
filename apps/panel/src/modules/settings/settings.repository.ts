import type { Db } from '../../db/connect';
import { upsertSetting } from '../../db/upsert';

/** Settings rows hold JSON-encoded values keyed by name; internal keys (not on the API) share the table. */
export class SettingsRepository {
  constructor(private readonly db: Db) {}

  async all(): Promise<Map<string, unknown>> {
    const rows = await this.db.kysely.selectFrom('settings').selectAll().execute();
    return new Map(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
  }

  async get(key: string): Promise<unknown> {
    const row = await this.db.kysely
      .selectFrom('settings')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    return row ? (JSON.parse(row.value) as unknown) : undefined;
  }

  async setMany(entries: ReadonlyArray<readonly [string, unknown]>): Promise<void> {
    // Each upsert is atomic on its own; a map write is small, so sequential is fine.
    for (const [key, value] of entries) await upsertSetting(this.db, key, JSON.stringify(value));
  }

  /**
   * Deletes the row only if it still holds `rawValue`; true for the one caller that did. `q`: a transaction to
   * run in (spending the setup token commits with the first administrator).
   */
  async deleteIf(key: string, rawValue: string, q: Db['kysely'] = this.db.kysely): Promise<boolean> {
    const result = await q
      .deleteFrom('settings')
      .where('key', '=', key)
      .where('value', '=', rawValue)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async delete(key: string): Promise<void> {
    await this.db.kysely.deleteFrom('settings').where('key', '=', key).execute();
  }
}
