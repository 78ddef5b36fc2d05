import type { Kysely } from 'kysely';

/**
 * Per stored template, what its last import brought (docs/api.md § Templates, import state): the source it
 * came from, the hash of the definition as imported and the template's own `version` field if it has one. The
 * import list compares the sources with these to mark templates as imported, current or outdated. A template
 * saved by hand has no row here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('template_imports')
    .ifNotExists()
    .addColumn('template_id', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('source', 'varchar(100)', (c) => c.notNull())
    .addColumn('definition_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('version', 'varchar(100)')
    .addColumn('imported_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('template_imports').ifExists().execute();
}
