/**
 * Entries written in batches (docs/activity.md § Cost), on every database: many entries recorded at once are
 * stored with multi-row INSERTs, each `record` resolving once its entry is stored, listeners told once per entry
 * in order; the app's close writes what is still pending, so a normal stop loses nothing; a failed batch is
 * logged and its callers are answered, never left waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '@hearth/contract';
import { ACTIVITY_BATCH_MAX } from '../../src/modules/activity/activity.service';
import { buildTestApp, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';

const actor = { type: 'system', id: null, label: 'batch', ip: null } as const;

describe.each(DIALECTS)('activity batches on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores many entries recorded at once, each awaited record finding its entry', async () => {
    const told: ActivityEntry[] = [];
    const off = t.services.activity.onRecorded((e) => told.push(e));
    const count = ACTIVITY_BATCH_MAX * 3 + 7;
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        t.services.activity.record({ actor, action: 'oauth2.client.deleted', details: { keys: [`k${i}`] } }),
      ),
    );
    off();
    const stored = await t.services.activity.page({ action: 'oauth2.client.deleted' }, 1, 200);
    expect(stored.total).toBe(count);
    expect(told.map((e) => e.details.keys)).toEqual(Array.from({ length: count }, (_, i) => [`k${i}`]));
    // One record alone is stored by the time it resolves, too.
    await t.services.activity.record({ actor, action: 'template.changed', details: { name: 'one' } });
    expect((await t.services.activity.page({ action: 'template.changed' }, 1, 10)).total).toBe(1);
  });

  it('a close writes what is still pending', async () => {
    const other = await buildTestApp(dialect);
    let resolved = 0;
    for (let i = 0; i < 20; i++)
      void other.services.activity
        .record({ actor, action: 'template.deleted', details: { i } })
        .then(() => (resolved += 1));
    await other.services.activity.close();
    expect(resolved).toBe(20);
    expect((await other.services.activity.page({ action: 'template.deleted' }, 1, 50)).total).toBe(20);
    await other.close();
  });
});
