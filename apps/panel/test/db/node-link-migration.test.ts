/**
 * Migration 0014 on nodes that already exist: every node keeps being dialled by the panel (`inbound`) and
 * nothing else of it changes; a node inserted without a mode afterwards is inbound too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator, type Kysely } from 'kysely';
import { connectDatabase, migrateToLatest, type Db } from '../../src/db';
import { migrationsBefore } from '../../src/db/migrate';
import { DIALECTS } from '../helpers/dialects';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

const before = migrationsBefore('0014_node_link');

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
