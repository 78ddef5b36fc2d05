import { sql, type Kysely } from 'kysely';
import { permissionColumn } from '../permission-columns';

/**
 * The activity log (docs/activity.md): one append-only table with an index per query the screens make (by
 * time; a server's, a user's or an action's entries by time), and the server flag `viewServerActivity`.
 * 0001 creates a column for every flag the contract lists when it runs, so the flag column is added only where
 * it is missing (by introspection, as 0007 does); the name is written out so this migration never changes.
 */
const FLAG = 'viewServerActivity';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('activity')
    .ifNotExists()
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addColumn('actor_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('actor_id', 'varchar(64)')
    .addColumn('actor_label', 'varchar(191)', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'varchar(64)')
    .addColumn('server_id', 'varchar(64)')
    .addColumn('node_id', 'varchar(36)')
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .execute();
  const indexes: Array<[string, string[]]> = [
    ['activity_time_idx', ['time']],
    ['activity_server_time_idx', ['server_id', 'time']],
    ['activity_actor_time_idx', ['actor_id', 'time']],
    ['activity_action_time_idx', ['action', 'time']],
  ];
  for (const [name, columns] of indexes)
    await db.schema.createIndex(name).ifNotExists().on('activity').columns(columns).execute();
  await addFlag(db);
}

/** The new flag; whoever held every other server flag (a server's owner) holds it too. */
async function addFlag(db: Kysely<unknown>): Promise<void> {
  const tables = await db.introspection.getTables();
  const table = tables.find((t) => t.name === 'permissions');
  const column = permissionColumn(FLAG);
  if (table?.columns.some((c) => c.name === column)) return;
  await db.schema
    .alterTable('permissions')
    .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const others = (table?.columns ?? []).map((c) => c.name).filter((name) => EARLIER.includes(name));
  const full = others.map((name) => sql`${sql.ref(name)} = 1`);
  await sql`update permissions set ${sql.ref(column)} = 1 where server_id <> '' and ${sql.join(full, sql` and `)}`.execute(
    db,
  );
}

/** Every server flag column before this migration. */
const EARLIER = [
  'edit_server_data',
  'edit_server_users',
  'install_server',
  'view_server_console',
  'send_server_console',
  'stop_server',
  'start_server',
  'view_server_stats',
  'view_server_files',
  'sftp_server',
  'put_server_files',
  'view_server_backups',
  'create_server_backups',
  'restore_server_backups',
  'delete_server_backups',
  'download_server_backups',
];

export async function down(): Promise<void> {}
