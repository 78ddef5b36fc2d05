/**
 * Node events into the activity log (docs/activity.md § Node events): a page of a node's outbox is inserted in
 * one transaction with the node's cursor, and only the events after the cursor as it stands inside that
 * transaction — so a page pulled twice (the panel died before its acknowledgement reached the node) is
 * recorded once.
 */
import type { Db } from '../../db/connect';
import type { ActivityRow } from './activity.repository';

export interface NodeEventCursor {
  outbox: string;
  seq: number;
}

export class NodeEventsRepository {
  constructor(private readonly db: Db) {}

  async cursor(nodeId: string): Promise<NodeEventCursor | null> {
    const row = await this.db.kysely
      .selectFrom('node_event_cursors')
      .select(['outbox', 'seq'])
      .where('node_id', '=', nodeId)
      .executeTakeFirst();
    return row ? { outbox: row.outbox, seq: Number(row.seq) } : null;
  }

  /**
   * Inserts the rows whose sequence number is after the stored cursor (the cursor of another outbox counts as
   * none) and moves the cursor to `last`; answers the rows inserted.
   */
  async store(
    nodeId: string,
    outbox: string,
    last: number,
    rows: ReadonlyArray<{ seq: number; row: ActivityRow }>,
  ): Promise<ActivityRow[]> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('node_event_cursors')
        .select(['outbox', 'seq'])
        .where('node_id', '=', nodeId)
        .executeTakeFirst();
      const after = current && current.outbox === outbox ? Number(current.seq) : 0;
      const fresh = rows.filter((r) => r.seq > after).map((r) => r.row);
      if (fresh.length > 0) await trx.insertInto('activity').values(fresh).execute();
      const cursor = { outbox, seq: Math.max(after, last), updated_at: Date.now() };
      if (current) {
        await trx.updateTable('node_event_cursors').set(cursor).where('node_id', '=', nodeId).execute();
      } else {
        await trx
          .insertInto('node_event_cursors')
          .values({ node_id: nodeId, ...cursor })
          .execute();
      }
      return fresh;
    });
  }

  async forget(nodeId: string): Promise<void> {
    await this.db.kysely.deleteFrom('node_event_cursors').where('node_id', '=', nodeId).execute();
  }
}
