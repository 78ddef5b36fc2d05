/**
 * `panel.activityEnabled: false` (docs/activity.md § Turning it off): a real panel records nothing, on every
 * database, while the same panel with the default records the same action.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';

const actor = { type: 'system', id: null, label: 'test', ip: null } as const;

describe.each(DIALECTS)('the activity log switched off on %s', (dialect) => {
  let off: TestApp;
  let on: TestApp;
  beforeAll(async () => {
    off = await buildTestApp(dialect, { panel: { activityEnabled: false } });
    on = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await off?.close();
    await on?.close();
  });

  it('records nothing when off, and the same action when on', async () => {
    await off.services.activity.record({ actor, action: 'settings.changed', details: { keys: ['x'] } });
    await on.services.activity.record({ actor, action: 'settings.changed', details: { keys: ['x'] } });
    expect((await off.services.activity.page({}, 1, 10)).total).toBe(0);
    expect((await on.services.activity.page({}, 1, 10)).total).toBe(1);
  });
});
