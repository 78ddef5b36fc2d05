import type { Kysely } from 'kysely';

/** Issue 5: nodes (daemons the panel drives) and servers (one row per server the panel knows of). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('nodes')
    .ifNotExists()
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('public_host', 'varchar(191)', (c) => c.notNull())
    .addColumn('public_port', 'integer', (c) => c.notNull())
    .addColumn('private_host', 'varchar(191)', (c) => c.notNull())
    .addColumn('private_port', 'integer', (c) => c.notNull())
    .addColumn('sftp_port', 'integer', (c) => c.notNull())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('is_local', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('servers')
    .ifNotExists()
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('node_id', 'varchar(36)', (c) => c.notNull().references('nodes.id'))
    .addColumn('ip', 'varchar(191)', (c) => c.notNull().defaultTo(''))
    .addColumn('port', 'integer')
    .addColumn('type', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('servers_node_idx').ifNotExists().on('servers').column('node_id').execute();
}

export async function down(): Promise<void> {}
