import type { Kysely } from 'kysely';

/**
 * Who opens a node's link (docs/operations.md § Remote node, outbound mode): `inbound` — the panel dials the
 * daemon, as every node did before; `outbound` — the daemon dials the panel and needs no open port. Existing
 * nodes keep being dialled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('nodes')
    .addColumn('link', 'varchar(16)', (c) => c.notNull().defaultTo('inbound'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('nodes').dropColumn('link').execute();
}
