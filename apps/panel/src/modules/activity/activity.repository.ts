import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/connect';
import type { ActivityTable, Database } from '../../db/types';

export type ActivityRow = ActivityTable;

/** What a query of the log filters on (all optional; every filter narrows). */
export interface ActivityFilter {
  server?: string;
  user?: string;
  /** An exact action, or a prefix ending in `.`. */
  action?: string;
  since?: number;
  until?: number;
}

type Query = SelectQueryBuilder<Database, 'activity', object>;

/** The activity table: inserts, filtered pages, keyset chunks for exports, and the retention delete. */
export class ActivityRepository {
  constructor(private readonly db: Db) {}

  async insert(row: ActivityRow): Promise<void> {
    await this.db.kysely.insertInto('activity').values(row).execute();
  }

  /** Several rows in one statement (the service's batches: activity.service.ts). */
  async insertMany(rows: readonly ActivityRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.kysely
      .insertInto('activity')
      .values([...rows])
      .execute();
  }

  async page(
    filter: ActivityFilter,
    page: number,
    limit: number,
  ): Promise<{ rows: ActivityRow[]; total: number }> {
    const query = this.filtered(filter);
    const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await query
      .selectAll()
      .orderBy('time', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute();
    return { rows, total: Number(total.n) };
  }

  /** The next `limit` rows after `after` (newest first): exports walk the log without OFFSET's cost. */
  async chunk(
    filter: ActivityFilter,
    after: { time: number; id: string } | null,
    limit: number,
  ): Promise<ActivityRow[]> {
    let query = this.filtered(filter);
    if (after)
      query = query.where((eb) =>
        eb.or([eb('time', '<', after.time), eb.and([eb('time', '=', after.time), eb('id', '<', after.id)])]),
      );
    const rows = await query.selectAll().orderBy('time', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((r) => ({ ...r, time: Number(r.time) }));
  }

  /** Retention: every entry older than `before` goes (the one delete the log knows). */
  async deleteBefore(before: number): Promise<number> {
    const result = await this.db.kysely.deleteFrom('activity').where('time', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private filtered(filter: ActivityFilter): Query {
    let query: Query = this.db.kysely.selectFrom('activity');
    if (filter.server !== undefined) query = query.where('server_id', '=', filter.server);
    if (filter.user !== undefined) query = query.where('actor_id', '=', filter.user);
    if (filter.action !== undefined) {
      if (filter.action.endsWith('.')) {
        // '!' as the LIKE escape: backslash escaping differs between dialects (users.repository.ts).
        const pattern = `${filter.action.replace(/[!%_]/g, (c) => `!${c}`)}%`;
        query = query.where(sql<boolean>`action like ${pattern} escape '!'`);
      } else query = query.where('action', '=', filter.action);
    }
    if (filter.since !== undefined) query = query.where('time', '>=', filter.since);
    if (filter.until !== undefined) query = query.where('time', '<=', filter.until);
    return query;
  }
}
