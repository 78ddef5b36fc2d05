/**
 * Migration 0005 on nodes that already exist (docs/security.md § Node link, "Nodes from before the encrypted
 * link"): a remote node keeps its addresses and secret hash, becomes `pinned` without a certificate — reached
 * over plain HTTP as before and told to rotate — and the local node becomes `plain`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator, type Kysely } from 'kysely';
import { connectDatabase, migrateToLatest, type Db } from '../../src/db';
import { migrationsBefore } from '../../src/db/migrate';
import { linkTlsOf, needsRotate } from '../../src/nodes-link/link-mode';
import { DIALECTS } from '../helpers/dialects';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

const before = migrationsBefore('0005_node_tls');

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
});

describe.each(DIALECTS)('0005_node_tls on existing nodes, %s', (dialect) => {
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
    await (db.kysely as Kysely<unknown> as Kysely<{ nodes: ReturnType<typeof row> }>)
      .insertInto('nodes')
      .values([row('remote', 0), row('local', 1)])
      .execute();
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('remote: pinned without a pin (plain link, needs a rotation); local: plain; nothing else changes', async () => {
    expect(await migrateToLatest(db.kysely)).toContain('0005_node_tls');
    const nodes = await db.kysely.selectFrom('nodes').selectAll().orderBy('id').execute();
    const [local, remote] = nodes;
    expect(remote).toMatchObject({
      ...row('remote', 0),
      tls_mode: 'pinned',
      tls_cert: null,
      tls_fingerprint: null,
      tls_key_sealed: null,
      secret_sealed: null,
    });
    expect(local).toMatchObject({ ...row('local', 1), tls_mode: 'plain', tls_cert: null });
    if (!remote || !local) throw new Error('rows missing');
    expect(linkTlsOf(remote)).toEqual({ mode: 'plain' });
    expect(needsRotate(remote)).toBe(true);
    expect(needsRotate(local)).toBe(false);
  });
});
