import { MysqlAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // MySQL's TEXT stops at 64 KiB; a template with a long readme can pass that. MEDIUMTEXT holds 16 MiB.
  const bigText = db.getExecutor().adapter instanceof MysqlAdapter ? sql`mediumtext` : sql`text`;
  await db.schema
    .createTable('templates')
    .ifNotExists()
    .addColumn('id', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('display', 'varchar(255)', (c) => c.notNull())
    .addColumn('type', 'varchar(100)', (c) => c.notNull())
    .addColumn('definition', bigText, (c) => c.notNull())
    .addColumn('warnings', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {}
