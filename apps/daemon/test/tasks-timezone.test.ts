/**
 * Task schedules follow the node's configured time zone. (Runs across a daemon restart and a definition
 * reload need a panel answering the owner's access: e2e/tasks-runs.test.ts.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { TaskListResponse } from '@hearth/contract';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

const id = 'restart-game';

describe('task schedules', () => {
  let d: TestDaemon | undefined;
  afterAll(async () => d?.close());

  it('reads schedules in the configured time zone', async () => {
    d = await startTestDaemon({ tasks: { timeZone: 'Asia/Tokyo' } });
    const admin = await d.admin();
    await d.request('PUT', `/daemon/server/${id}`, { token: admin, body: fakeGameDefinition() });
    await d.request('POST', `/daemon/server/${id}/tasks`, {
      token: admin,
      body: { name: 'Tokyo four', cronSchedule: '0 4 * * *' },
    });
    const res = await d.request('GET', `/daemon/server/${id}/tasks`, { token: admin });
    const [task] = Object.values(((await res.json()) as TaskListResponse).tasks);
    const next = new Date(task?.nextRun ?? 0);
    // 04:00 in Tokyo (UTC+9, no daylight saving) is 19:00 UTC, within the next day.
    expect(next.getUTCHours()).toBe(19);
    expect(next.getUTCMinutes()).toBe(0);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    const sixFields = await d.request('POST', `/daemon/server/${id}/tasks`, {
      token: admin,
      body: { name: 'x', cronSchedule: '* * * * * *' },
    });
    expect(sixFields.status).toBe(400);
  });
});
