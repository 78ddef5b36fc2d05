/**
 * Node events into the activity log on every database (docs/activity.md § Node events): a page stored twice —
 * the panel died after recording it and before its acknowledgement reached the node — is recorded once, and a
 * new outbox on the node (its data folder wiped) starts the node's cursor again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, migrateToLatest, type Db } from '../../src/db';
import type { ActivityRow } from '../../src/modules/activity/activity.repository';
import { NodeEventsRepository } from '../../src/modules/activity/node-events.repository';
import { DIALECTS } from '../helpers/dialects';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

let next = 0;
function entry(nodeId: string, seq: number): { seq: number; row: ActivityRow } {
  next += 1;
  return {
    seq,
    row: {
      id: `00000000-0000-4000-8000-${String(next).padStart(12, '0')}`,
      time: 1_700_000_000_000 + seq,
      actor_type: 'system',
      actor_id: null,
      actor_label: 'node',
      ip: null,
      server_id: 'srv1',
      node_id: nodeId,
      action: 'server.crashed',
      details: JSON.stringify({ seq }),
    },
  };
}

describe.each(DIALECTS)('node events stored on %s', (dialect) => {
  let testDb: TestDatabase;
  let db: Db;
  let repo: NodeEventsRepository;

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    db = connectDatabase(testDb.url);
    await migrateToLatest(db.kysely);
    repo = new NodeEventsRepository(db);
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  const seqsOf = async (nodeId: string) =>
    (
      await db.kysely
        .selectFrom('activity')
        .select('details')
        .where('node_id', '=', nodeId)
        .orderBy('time')
        .execute()
    ).map((r) => (JSON.parse(r.details) as { seq: number }).seq);

  it('records a page once, even when it is stored again', async () => {
    const page = [entry('n1', 1), entry('n1', 2), entry('n1', 3)];
    expect(await repo.store('n1', 'box-a', 3, page)).toHaveLength(3);
    // The same events pulled again (new row ids, as a second pull makes them): nothing new.
    expect(await repo.store('n1', 'box-a', 3, [entry('n1', 2), entry('n1', 3)])).toHaveLength(0);
    expect(await repo.store('n1', 'box-a', 4, [entry('n1', 3), entry('n1', 4)])).toHaveLength(1);
    expect(await seqsOf('n1')).toEqual([1, 2, 3, 4]);
    expect(await repo.cursor('n1')).toEqual({ outbox: 'box-a', seq: 4 });
  });

  it('starts again with a new outbox, and keeps nodes apart', async () => {
    await repo.store('n2', 'box-b', 2, [entry('n2', 1), entry('n2', 2)]);
    expect(await repo.store('n2', 'box-c', 1, [entry('n2', 1)])).toHaveLength(1);
    expect(await repo.cursor('n2')).toEqual({ outbox: 'box-c', seq: 1 });
    expect(await repo.cursor('n1')).toEqual({ outbox: 'box-a', seq: 4 });
    await repo.forget('n2');
    expect(await repo.cursor('n2')).toBeNull();
  });
});
