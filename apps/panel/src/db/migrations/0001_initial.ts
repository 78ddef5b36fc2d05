import type { Kysely } from 'kysely';
import { panelPermissions, serverPermissions } from '@hearth/contract';
import { permissionColumn } from '../permission-columns';

// Migrations take Kysely<unknown>: they must not depend on the current row types, which change later.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('settings')
    .ifNotExists()
    .addColumn('key', 'varchar(191)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .ifNotExists()
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('username', 'varchar(100)', (c) => c.notNull())
    .addColumn('username_key', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('otp_secret', 'varchar(64)')
    .addColumn('otp_pending_secret', 'varchar(64)')
    .addColumn('otp_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('otp_last_counter', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_settings')
    .ifNotExists()
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'varchar(64)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_settings_pk', ['user_id', 'key'])
    .execute();

  let permissions = db.schema
    .createTable('permissions')
    .ifNotExists()
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('server_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('permissions_pk', ['user_id', 'server_id']);
  for (const flag of [...panelPermissions, ...serverPermissions]) {
    permissions = permissions.addColumn(permissionColumn(flag), 'integer', (c) => c.notNull().defaultTo(0));
  }
  await permissions.execute();

  await db.schema
    .createTable('sessions')
    .ifNotExists()
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_idx').ifNotExists().on('sessions').column('user_id').execute();
}

// Never destructive: going down is not supported (a backup is the way back).
export async function down(): Promise<void> {}
