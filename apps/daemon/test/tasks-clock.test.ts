/**
 * Real 5-field schedules firing on a real daemon whose task scheduler was given a clock the test moves
 * (scheduler/clock.ts): `* * * * *` runs when the clock crosses a minute boundary and not a millisecond before,
 * the next run moves on by a minute, a zone's schedule fires at that zone's hour, a deleted task's job is gone,
 * and per-second schedules are refused (ErrInvalidCron). This daemon has no panel credential, so a fired run
 * fails closed with that reason (docs/daemon.md § Tasks) — which is how the test sees it fired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task, TaskListResponse } from '@hearth/contract';
import { ManualClock } from './helpers/manual-clock';
import { waitFor } from './helpers/poll';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

const id = 'clock-game';
/** A Monday, 10:30:15.250 UTC. */
const START = Date.parse('2024-01-15T10:30:15.250Z');
const NOT_RUN = 'not run: this node has no panel credential';

describe('scheduled tasks on the scheduler clock', () => {
  let d: TestDaemon;
  let admin: string;
  const clock = new ManualClock(START);
  /** Timers on the clock that are not task jobs (the node's backup upkeep): counted once, before any task. */
  let otherTimers = 0;

  beforeAll(async () => {
    d = await startTestDaemon({ tasks: { timeZone: 'Asia/Tokyo' } }, { clock });
    admin = await d.admin();
    expect(
      (await d.request('PUT', `/daemon/server/${id}`, { token: admin, body: fakeGameDefinition() })).status,
    ).toBe(200);
    otherTimers = clock.pending();
  });
  afterAll(async () => d?.close());

  const tasks = async () =>
    (
      (await (
        await d.request('GET', `/daemon/server/${id}/tasks`, { token: admin })
      ).json()) as TaskListResponse
    ).tasks;
  const create = async (name: string, cronSchedule: string) => {
    const res = await d.request('POST', `/daemon/server/${id}/tasks`, {
      token: admin,
      body: { name, cronSchedule, operations: [{ type: 'mkdir', target: name }] },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { id: string }).id;
  };
  const consoleText = async () =>
    (
      (await (await d.request('GET', `/daemon/server/${id}/console`, { token: admin })).json()) as {
        logs: string;
      }
    ).logs;
  const ranAt = (taskId: string, at: number) =>
    waitFor(
      async () => {
        const task: Task | undefined = (await tasks())[taskId];
        return task?.lastRun?.at === at && task.lastRun.result !== 'running' ? task : null;
      },
      `run of ${taskId} at ${new Date(at).toISOString()}`,
    );

  it('fires `* * * * *` when the clock crosses the minute, not before, then a minute later', async () => {
    const taskId = await create('minutely', '* * * * *');
    const boundary = Date.parse('2024-01-15T10:31:00.000Z');
    expect((await tasks())[taskId]).toMatchObject({ nextRun: boundary, lastRun: null });

    clock.advanceTo(boundary - 1);
    // A job that fired would already be armed for the minute after (it re-arms before its run starts).
    expect((await tasks())[taskId]).toMatchObject({ nextRun: boundary, lastRun: null });
    expect(await consoleText()).not.toContain('Task minutely');

    clock.advanceTo(boundary);
    const first = await ranAt(taskId, boundary);
    expect(first.lastRun).toMatchObject({ result: 'failed' });
    expect(first.lastRun?.error).toMatch(new RegExp(`^${NOT_RUN}`));
    expect(first.nextRun).toBe(boundary + 60_000);
    expect(await consoleText()).toContain(`[DAEMON] Task minutely ${NOT_RUN}`);

    clock.advanceTo(boundary + 60_000);
    expect((await ranAt(taskId, boundary + 60_000)).nextRun).toBe(boundary + 120_000);

    expect((await d.request('DELETE', `/daemon/server/${id}/tasks/${taskId}`, { token: admin })).status).toBe(
      204,
    );
    expect(clock.pending()).toBe(otherTimers);
  });

  it('reads the schedule in the node’s zone: 04:00 in Tokyo is 19:00 UTC', async () => {
    const taskId = await create('tokyo', '0 4 * * *');
    const due = Date.parse('2024-01-15T19:00:00.000Z');
    expect((await tasks())[taskId]?.nextRun).toBe(due);
    clock.advanceTo(due - 1);
    expect((await tasks())[taskId]).toMatchObject({ nextRun: due, lastRun: null });
    clock.advanceTo(due);
    expect((await ranAt(taskId, due)).nextRun).toBe(due + 24 * 3600_000);
    expect((await d.request('DELETE', `/daemon/server/${id}/tasks/${taskId}`, { token: admin })).status).toBe(
      204,
    );
  });

  it('stops a task’s job when it becomes manual-only', async () => {
    const taskId = await create('once', '* * * * *');
    expect(clock.pending()).toBe(otherTimers + 1);
    const res = await d.request('PUT', `/daemon/server/${id}/tasks/${taskId}`, {
      token: admin,
      body: { name: 'once', cronSchedule: null, operations: [] },
    });
    expect(res.status).toBe(204);
    expect(clock.pending()).toBe(otherTimers);
    clock.advanceTo(clock.nextMinute());
    expect((await tasks())[taskId]).toMatchObject({ nextRun: null, lastRun: null });
  });

  it('refuses per-second (6-field) schedules with ErrInvalidCron', async () => {
    for (const cronSchedule of ['* * * * * *', '0 0 4 * * *']) {
      const res = await d.request('POST', `/daemon/server/${id}/tasks`, {
        token: admin,
        body: { name: 'x', cronSchedule, operations: [] },
      });
      expect(res.status, cronSchedule).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ErrInvalidCron');
    }
  });
});
