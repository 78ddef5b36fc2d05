import { sql, type Kysely } from 'kysely';
import { permissionColumn } from '../permission-columns';

/**
 * Alerts (docs/alerts.md): the rules, each rule's channel target (its webhook secret stored here, never read
 * back through the API), and the delivery log with the index its screen reads (a rule's deliveries by time).
 * The server flag `manageServerAlerts` is added where missing, as 0008 adds its flag; the name is written out so
 * this migration never changes.
 */
const FLAG = 'manageServerAlerts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('alert_rules')
    .ifNotExists()
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('server_id', 'varchar(64)')
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('created_by', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('alert_rules_server_idx')
    .ifNotExists()
    .on('alert_rules')
    .column('server_id')
    .execute();
  await db.schema
    .createTable('alert_targets')
    .ifNotExists()
    .addColumn('rule_id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('address', 'varchar(2048)', (c) => c.notNull())
    .addColumn('format', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('secret', 'varchar(256)')
    .execute();
  await db.schema
    .createTable('alert_deliveries')
    .ifNotExists()
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('rule_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addColumn('event', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'varchar(500)')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('alert_deliveries_rule_time_idx')
    .ifNotExists()
    .on('alert_deliveries')
    .columns(['rule_id', 'time'])
    .execute();
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
  'view_server_activity',
];

export async function down(): Promise<void> {}
