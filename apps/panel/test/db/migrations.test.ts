import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connectDatabase, migrateToLatest, type Db } from '../../src/db';
import { DIALECTS } from '../helpers/dialects';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

describe.each(DIALECTS)('migrations on %s', (dialect) => {
  let testDb: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    db = connectDatabase(testDb.url);
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('applies every migration once, and a second run is a no-op', async () => {
    const first = await migrateToLatest(db.kysely);
    expect(first).toEqual([
      '0001_initial',
      '0002_accounts',
      '0003_templates',
      '0004_nodes_servers',
      '0005_node_tls',
      '0006_oauth2_revocation',
      '0007_backup_permissions',
      '0008_activity',
      '0009_alerts',
      '0010_otp_recovery_codes',
      '0011_password_resets',
      '0012_node_event_cursors',
      '0013_template_imports',
      '0014_node_link',
    ]);
    expect(await migrateToLatest(db.kysely)).toEqual([]);
  });

  it('creates the tables and records the migrations', async () => {
    const tables = (await db.kysely.introspection.getTables()).map((t) => t.name);
    for (const table of [
      'settings',
      'users',
      'user_settings',
      'permissions',
      'sessions',
      'oauth2_clients',
      'invites',
      'otp_recovery_codes',
      'password_resets',
      'node_event_cursors',
      'template_imports',
    ]) {
      expect(tables).toContain(table);
    }
    const recorded = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      db.kysely,
    );
    expect(recorded.rows.map((r) => r.name)).toEqual([
      '0001_initial',
      '0002_accounts',
      '0003_templates',
      '0004_nodes_servers',
      '0005_node_tls',
      '0006_oauth2_revocation',
      '0007_backup_permissions',
      '0008_activity',
      '0009_alerts',
      '0010_otp_recovery_codes',
      '0011_password_resets',
      '0012_node_event_cursors',
      '0013_template_imports',
      '0014_node_link',
    ]);
  });

  it('keeps data when migrating again (never destructive)', async () => {
    await db.kysely.insertInto('settings').values({ key: 'k', value: '"v"' }).execute();
    await migrateToLatest(db.kysely);
    const row = await db.kysely.selectFrom('settings').selectAll().where('key', '=', 'k').executeTakeFirst();
    expect(row?.value).toBe('"v"');
  });

  it('rejects two users whose e-mails differ only in case (stored lower-cased, unique)', async () => {
    const base = { password_hash: null, status: 'active', otp_secret: null, otp_pending_secret: null };
    const now = Date.now();
    const extra = { otp_enabled: 0, otp_last_counter: null, created_at: now, updated_at: now };
    await db.kysely
      .insertInto('users')
      .values({ id: 'u1', username: 'Ann', username_key: 'ann', email: 'ann@x.io', ...base, ...extra })
      .execute();
    await expect(
      db.kysely
        .insertInto('users')
        .values({ id: 'u2', username: 'ANN', username_key: 'ann', email: 'other@x.io', ...base, ...extra })
        .execute(),
    ).rejects.toThrow();
  });
});
