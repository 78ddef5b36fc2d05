import { sql, type Kysely } from 'kysely';
import { permissionColumn } from '../permission-columns';

/**
 * The backup flags of a server's users (docs/backups.md § Permissions): one column each on `permissions`.
 * 0001 creates a column for every flag the contract lists when it runs, so a database created after these flags
 * existed has them already: only the missing ones are added (all three dialects, by introspection). Names are
 * written out rather than read from the contract: a migration must not change when the contract does.
 */
const FLAGS = [
  'viewServerBackups',
  'createServerBackups',
  'restoreServerBackups',
  'deleteServerBackups',
  'downloadServerBackups',
] as const;

/** Every server flag before this migration: a user holding all of them (a server's owner) gets the new ones. */
const EARLIER = [
  'editServerData',
  'editServerUsers',
  'installServer',
  'viewServerConsole',
  'sendServerConsole',
  'stopServer',
  'startServer',
  'viewServerStats',
  'viewServerFiles',
  'sftpServer',
  'putServerFiles',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const tables = await db.introspection.getTables();
  const table = tables.find((t) => t.name === 'permissions');
  const present = new Set(table?.columns.map((c) => c.name) ?? []);
  const added = FLAGS.map(permissionColumn).filter((column) => !present.has(column));
  for (const column of added) {
    await db.schema
      .alterTable('permissions')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  if (added.length === 0) return;
  // Owners keep owning everything: whoever held every server flag holds the backup flags too.
  const sets = added.map((column) => sql`${sql.ref(column)} = 1`);
  const full = EARLIER.map((flag) => sql`${sql.ref(permissionColumn(flag))} = 1`);
  await sql`update permissions set ${sql.join(sets)} where server_id <> '' and ${sql.join(full, sql` and `)}`.execute(
    db,
  );
}

export async function down(): Promise<void> {}
