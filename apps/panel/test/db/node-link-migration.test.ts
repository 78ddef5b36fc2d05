/**
 * Migration 0014 on nodes that already exist: every node keeps being dialled by the panel (`inbound`) and
 * nothing else of it changes; a node inserted without a mode afterwards is inbound too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator, type Kysely, type Migration } from 'kysely';
import { connectDatabase, migrateToLatest, type Db } from '../../src/db';
import * as m0001 from '../../src/db/migrations/0001_initial';
import * as m0002 from '../../src/db/migrations/0002_accounts';
import * as m0003 from '../../src/db/migrations/0003_templates';
import * as m0004 from '../../src/db/migrations/0004_nodes_servers';
import * as m0005 from '../../src/db/migrations/0005_node_tls';
import * as m0006 from '../../src/db/migrations/0006_oauth2_revocation';
import * as m0007 from '../../src/db/migrations/0007_backup_permissions';
import * as m0008 from '../../src/db/migrations/0008_activity';
import * as m0009 from '../../src/db/migrations/0009_alerts';
import * as m0010 from '../../src/db/migrations/0010_otp_recovery_codes';
import * as m0011 from '../../src/db/migrations/0011_password_resets';
import * as m0012 from '../../src/db/migrations/0012_node_event_cursors';
import * as m0013 from '../../src/db/migrations/0013_template_imports';
import { DIALECTS } from '../helpers/dialects';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

const before: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_accounts': m0002,
  '0003_templates': m0003,
  '0004_nodes_servers': m0004,
  '0005_node_tls': m0005,
  '0006_oauth2_revocation': m0006,
  '0007_backup_permissions': m0007,
  '0008_activity': m0008,
  '0009_alerts': m0009,
  '0010_otp_recovery_codes': m0010,
  '0011_password_resets': m0011,
  '0012_node_event_cursors': m0012,
  '0013_template_imports': m0013,
};

const row = (id: string, isLocal: number) => ({
  id,
  name: `node-${id}`,
  public_host: '10.0.0.5',
  public_port: 5656,
  private_host: isLocal ? '127.0.0.1' : '10.0.0.5',
  private_port: 5656,
  sftp_port: 5657,
  secret_hash: `hash-${id}`,
  is_local: isLocal,
  created_at: 1,
  tls_mode: isLocal ? 'plain' : 'pinned',
});

type Rows = Kysely<{ nodes: ReturnType<typeof row> }>;

describe.each(DIALECTS)('0014_node_link on existing nodes, %s', (dialect) => {
  let testDb: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    db = connectDatabase(testDb.url);
    const older = new Migrator({
      db: db.kysely as Kysely<unknown>,
      provider: { getMigrations: async () => before },
    });
    const result = await older.migrateToLatest();
    if (result.error) throw new Error('older migrations failed', { cause: result.error });
    await (db.kysely as Kysely<unknown> as Rows)
      .insertInto('nodes')
      .values([row('remote', 0), row('local', 1)])
      .execute();
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('existing nodes become inbound, unchanged otherwise; the column defaults to inbound', async () => {
    expect(await migrateToLatest(db.kysely)).toContain('0014_node_link');
    const [local, remote] = await db.kysely.selectFrom('nodes').selectAll().orderBy('id').execute();
    expect(remote).toMatchObject({ ...row('remote', 0), link: 'inbound' });
    expect(local).toMatchObject({ ...row('local', 1), link: 'inbound' });
    await (db.kysely as Kysely<unknown> as Rows).insertInto('nodes').values(row('later', 0)).execute();
    const later = await db.kysely
      .selectFrom('nodes')
      .select('link')
      .where('id', '=', 'later')
      .executeTakeFirst();
    expect(later).toEqual({ link: 'inbound' });
  });
});
