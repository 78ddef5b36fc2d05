/**
 * Tasks survive a daemon restart: a second daemon on the same data dir lists the task, keeps its last run and
 * keeps firing it; a definition reload re-reads the tasks file; the configured time zone drives nextRun.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TaskListResponse } from '@hearth/contract';
import { waitFor } from './helpers/poll';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

const id = 'restart-game';

async function tasksOf(d: TestDaemon) {
  const res = await d.request('GET', `/daemon/server/${id}/tasks`, { token: await d.admin() });
  return ((await res.json()) as TaskListResponse).tasks;
}

async function consoleOf(d: TestDaemon): Promise<string> {
  const res = await d.request('GET', `/daemon/server/${id}/console`, { token: await d.admin() });
  return ((await res.json()) as { logs: string }).logs;
}

describe('tasks across daemon restarts', () => {
  const daemons: TestDaemon[] = [];
  afterAll(async () => {
    for (const d of daemons.reverse()) await d.close().catch(() => undefined);
  });

  it('keeps the schedule and the last run after a restart', async () => {
    const first = await startTestDaemon({ tasks: { allowSeconds: true, timeZone: '' } });
    daemons.push(first);
    const admin = await first.admin();
    await first.request('PUT', `/daemon/server/${id}`, { token: admin, body: fakeGameDefinition() });
    const created = await first.request('POST', `/daemon/server/${id}/tasks`, {
      token: admin,
      body: { name: 'Beat', cronSchedule: '* * * * * *', operations: [{ type: 'mkdir', target: 'beat' }] },
    });
    const { id: taskId } = (await created.json()) as { id: string };
    await waitFor(async () => (await tasksOf(first))[taskId]?.lastRun?.result === 'success', 'first run');
    await first.daemon.close(); // graceful stop; the data dir stays for the next daemon

    const second = await startTestDaemon({
      dataDir: first.dataDir,
      tasks: { allowSeconds: true, timeZone: '' },
    });
    daemons.push(second);
    const kept = (await tasksOf(second))[taskId];
    expect(kept).toMatchObject({ name: 'Beat', cronSchedule: '* * * * * *' });
    expect(kept?.lastRun?.result).toMatch(/success|running|failed/);
    await waitFor(
      async () => (await consoleOf(second)).includes('Task Beat finished'),
      'a run after restart',
    );
  });

  it('re-reads the tasks file when the definition is reloaded', async () => {
    const d = daemons.at(-1) as TestDaemon;
    const file = join(d.config.serversDir ?? '', `${id}.tasks.json`);
    // The per-second task keeps saving its last run to this file; a save that lands between our write and the
    // reload puts the old name back (the daemon's copy wins, as it should), so edit and reload until ours is read.
    await waitFor(async () => {
      const stored = JSON.parse(await readFile(file, 'utf8')) as { tasks: Record<string, { name: string }> };
      for (const task of Object.values(stored.tasks)) task.name = 'Renamed by hand';
      await writeFile(file, JSON.stringify(stored));
      const reload = await d.request('POST', `/daemon/server/${id}/reload`, { token: await d.admin() });
      expect(reload.status).toBe(204);
      const names = Object.values(await tasksOf(d)).map((t) => t.name);
      return names.length === 1 && names[0] === 'Renamed by hand';
    }, 'the hand-edited name after a reload');
    await waitFor(
      async () => (await consoleOf(d)).includes('Task Renamed by hand finished'),
      'reloaded task runs',
    );
  });

  it('reads schedules in the configured time zone', async () => {
    const d = await startTestDaemon({ tasks: { timeZone: 'Asia/Tokyo', allowSeconds: false } });
    daemons.push(d);
    const admin = await d.admin();
    await d.request('PUT', `/daemon/server/${id}`, { token: admin, body: fakeGameDefinition() });
    await d.request('POST', `/daemon/server/${id}/tasks`, {
      token: admin,
      body: { name: 'Tokyo four', cronSchedule: '0 4 * * *' },
    });
    const [task] = Object.values(await tasksOf(d));
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
