import type { Kysely } from 'kysely';

/**
 * Per node, the last event of its outbox the panel recorded (docs/activity.md § Node events): `outbox` is the
 * node outbox's id, `seq` its last recorded sequence number. Written in the same transaction as the activity
 * entries it covers, so a panel that dies between recording and acknowledging never records an event twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('node_event_cursors')
    .ifNotExists()
    .addColumn('node_id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('outbox', 'varchar(64)', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('node_event_cursors').ifExists().execute();
}
