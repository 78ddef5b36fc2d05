/**
 * Migration 0007 on a database from before the backup flags (docs/backups.md § Permissions): the five columns
 * are added, a user holding every earlier server flag (a server's owner) gets them, anyone else does not, and
 * panel-wide rows are untouched. On a database whose 0001 already made the columns, 0007 changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator, sql, type Kysely } from 'kysely';
import { connectDatabase, migrateToLatest, type Db } from '../../src/db';
import { migrationsBefore } from '../../src/db/migrate';
import { DIALECTS } from '../helpers/dialects';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

const before = migrationsBefore('0007_backup_permissions');

const BACKUP_COLUMNS = [
  'view_server_backups',
  'create_server_backups',
  'restore_server_backups',
  'delete_server_backups',
  'download_server_backups',
];
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
];

type Loose = Kysely<Record<string, Record<string, unknown>>>;

function user(id: string) {
  return { id, username: id, username_key: id, email: `${id}@example.com`, created_at: 1, updated_at: 1 };
}

async function columnsOf(db: Kysely<unknown>): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables.find((t) => t.name === 'permissions')?.columns.map((c) => c.name) ?? [];
}

describe.each(DIALECTS)('0007_backup_permissions, %s', (dialect) => {
  let testDb: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    db = connectDatabase(testDb.url);
    const raw = db.kysely as Kysely<unknown>;
    const older = new Migrator({ db: raw, provider: { getMigrations: async () => before } });
    const result = await older.migrateToLatest();
    if (result.error) throw new Error('older migrations failed', { cause: result.error });
    // 0001 made the columns of today's contract: take the backup ones away to stand for an older database.
    for (const column of BACKUP_COLUMNS)
      await raw.schema.alterTable('permissions').dropColumn(column).execute();
    const loose = db.kysely as unknown as Loose;
    await loose
      .insertInto('users')
      .values([user('owner'), user('helper'), user('admin')])
      .execute();
    const all = Object.fromEntries(EARLIER.map((c) => [c, 1]));
    // One row per insert: SQLite fills a multi-row insert's missing columns with NULL, not their default.
    for (const row of [
      { user_id: 'owner', server_id: 's1', ...all },
      { user_id: 'helper', server_id: 's1', ...all, put_server_files: 0 },
      { user_id: 'admin', server_id: '', admin: 1 },
    ])
      await loose.insertInto('permissions').values(row).execute();
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('adds the five columns; the owner gets them, a partial holder and a panel row do not', async () => {
    expect(await columnsOf(db.kysely as Kysely<unknown>)).not.toContain('view_server_backups');
    expect(await migrateToLatest(db.kysely)).toContain('0007_backup_permissions');
    expect(await columnsOf(db.kysely as Kysely<unknown>)).toEqual(expect.arrayContaining(BACKUP_COLUMNS));
    const rows = await (db.kysely as unknown as Loose)
      .selectFrom('permissions')
      .selectAll()
      .orderBy('user_id')
      .execute();
    const byUser = new Map(rows.map((r) => [String(r.user_id), r]));
    for (const column of BACKUP_COLUMNS) {
      expect(Number(byUser.get('owner')?.[column]), column).toBe(1);
      expect(Number(byUser.get('helper')?.[column]), column).toBe(0);
      expect(Number(byUser.get('admin')?.[column]), column).toBe(0);
    }
  });

  it('a fresh database (columns made by 0001) migrates without adding anything', async () => {
    const fresh = await createTestDatabase(dialect);
    const freshDb = connectDatabase(fresh.url);
    try {
      expect(await migrateToLatest(freshDb.kysely)).toContain('0007_backup_permissions');
      const columns = await columnsOf(freshDb.kysely as Kysely<unknown>);
      expect(columns.filter((c) => BACKUP_COLUMNS.includes(c))).toHaveLength(BACKUP_COLUMNS.length);
      await sql`select view_server_backups from permissions`.execute(freshDb.kysely);
    } finally {
      await freshDb.close();
      await fresh.drop();
    }
  });
});
