/**
 * Scheduled tasks on a real daemon with the fake game: a per-second task fires and its console shows the
 * steps; a manual run says a warning, sleeps, stops, waits and starts; an overlapping run is skipped; bad
 * schedules are refused; permissions; deleting the server removes its tasks file.
 */
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task, TaskListResponse } from '@hearth/contract';
import { waitFor } from './helpers/poll';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

describe('tasks', () => {
  let d: TestDaemon;
  let admin: string;
  const id = 'tasks-game';

  beforeAll(async () => {
    d = await startTestDaemon({ tasks: { allowSeconds: true, timeZone: '' } });
    admin = await d.admin();
    const created = await d.request('PUT', `/daemon/server/${id}`, {
      token: admin,
      body: fakeGameDefinition(),
    });
    expect(created.status).toBe(200);
  });
  afterAll(async () => d.close());

  const consoleText = async () =>
    (
      (await (await d.request('GET', `/daemon/server/${id}/console`, { token: admin })).json()) as {
        logs: string;
      }
    ).logs;
  const waitConsole = (text: string) =>
    waitFor(async () => (await consoleText()).includes(text), `console: ${text}`);
  const create = async (body: unknown) => {
    const res = await d.request('POST', `/daemon/server/${id}/tasks`, { token: admin, body });
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: string }).id;
  };
  const list = async () =>
    (
      (await (
        await d.request('GET', `/daemon/server/${id}/tasks`, { token: admin })
      ).json()) as TaskListResponse
    ).tasks;
  const remove = async (taskId: string) =>
    expect((await d.request('DELETE', `/daemon/server/${id}/tasks/${taskId}`, { token: admin })).status).toBe(
      204,
    );

  it('runs a per-second task on the running server and shows each step in the console', async () => {
    expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`, { token: admin })).status).toBe(
      204,
    );
    await waitConsole('fake-game ready');
    const taskId = await create({
      name: 'Tick',
      cronSchedule: '* * * * * *',
      operations: [
        { type: 'console', command: 'say tick' },
        { type: 'writefile', target: 'tick.txt', text: 'memory ${memory}' },
      ],
    });
    await waitConsole('Task Tick finished');
    const text = await consoleText();
    expect(text).toContain('[DAEMON] Running task Tick');
    expect(text).toContain('[DAEMON] Task Tick step 1/2 (console: say tick)');
    expect(text).toContain('echo: say tick');
    expect(text).toContain('[DAEMON] Task Tick step 2/2 (writefile)');
    expect(await readFile(join(d.config.serversDir ?? '', id, 'tick.txt'), 'utf8')).toBe('memory 512');
    const task = await waitFor(async () => {
      const t = (await list())[taskId];
      return t?.lastRun?.result === 'success' ? t : null;
    }, 'last run recorded');
    expect(task).toMatchObject({ id: taskId, name: 'Tick', cronSchedule: '* * * * * *' });
    expect(task.nextRun).toBeGreaterThan(task.lastRun?.at ?? Infinity);
    await remove(taskId);
    expect(await list()).toEqual({});
  });

  it('runs a manual task now: warn, sleep, stop, wait, start', async () => {
    const taskId = await create({
      name: 'Restart',
      cronSchedule: null,
      scheduled: false,
      operations: [
        { type: 'console', command: 'say restarting' },
        { type: 'sleep', seconds: 0.2 },
        { type: 'stop' },
        { type: 'wait', timeoutSeconds: 10 },
        { type: 'start' },
      ],
    });
    const before = (await list())[taskId];
    expect(before).toMatchObject({ cronSchedule: null, nextRun: null, lastRun: null });
    expect(
      (await d.request('POST', `/daemon/server/${id}/tasks/${taskId}/run`, { token: admin })).status,
    ).toBe(202);
    await waitConsole('Task Restart finished');
    const text = await consoleText();
    const order = [
      'Running task Restart',
      'step 1/5 (console: say restarting)',
      'step 2/5 (sleep 0.2 s)',
      'fake-game: stopping',
      'step 4/5 (wait)',
      'step 5/5 (start)',
      'Task Restart finished',
    ].map((line) => text.lastIndexOf(line));
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > (order[i - 1] ?? 0)))).toBe(true);
    expect(text).toContain('echo: say restarting');
    const status = await (await d.request('GET', `/daemon/server/${id}/status`, { token: admin })).json();
    expect(status).toMatchObject({ running: true });
    await waitFor(async () => (await list())[taskId]?.lastRun?.result === 'success', 'success recorded');
    await remove(taskId);
  });

  it('records a failed step and its reason', async () => {
    const taskId = await create({ name: 'Bad', operations: [{ type: 'move', source: 'nope', target: 'x' }] });
    await d.request('POST', `/daemon/server/${id}/tasks/${taskId}/run`, { token: admin });
    await waitConsole('Task Bad failed');
    const task = await waitFor(async () => {
      const t: Task | undefined = (await list())[taskId];
      return t?.lastRun?.result === 'failed' ? t : null;
    }, 'failure recorded');
    expect(task.lastRun?.error).toMatch(/^step 1: /);
    await remove(taskId);
  });

  it('skips a run that is due while the previous one still goes', async () => {
    const taskId = await create({
      name: 'Slow',
      cronSchedule: '* * * * * *',
      operations: [{ type: 'sleep', seconds: 2.5 }],
    });
    await waitConsole('Task Slow skipped (schedule): its previous run is still going');
    await remove(taskId);
  });

  it('refuses invalid schedules with ErrInvalidCron and keeps valid forms', async () => {
    for (const cronSchedule of ['61 * * * *', '@every 1s', '0 0 * *', 'not cron', '? * * * *']) {
      const res = await d.request('POST', `/daemon/server/${id}/tasks`, {
        token: admin,
        body: { name: 'x', cronSchedule, operations: [] },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string; msg: string } }).error).toMatchObject({
        code: 'ErrInvalidCron',
        msg: 'invalid task schedule',
      });
    }
    const ids = [];
    for (const cronSchedule of ['@daily', '0 4 ? * *', '0 0 */1 * *', '  ']) {
      ids.push(await create({ name: `n${ids.length}`, cronSchedule, operations: [] }));
    }
    const tasks = await list();
    expect(ids.map((t) => tasks[t]?.cronSchedule)).toEqual(['@daily', '0 4 ? * *', '0 0 */1 * *', null]);
    const first = ids[0] ?? '';
    const bad = await d.request('PUT', `/daemon/server/${id}/tasks/${first}`, {
      token: admin,
      body: { name: 'x', cronSchedule: '0 0 31 2 * 9' },
    });
    expect(bad.status).toBe(400);
    for (const taskId of ids) await remove(taskId);
  });

  it('answers ErrTaskNotFound, ErrFieldInvalid and ErrUnknownProcessor', async () => {
    const missing = await d.request('PUT', `/daemon/server/${id}/tasks/nope`, {
      token: admin,
      body: { name: 'x' },
    });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('ErrTaskNotFound');
    for (const path of [`tasks/nope/run`, `tasks/nope`]) {
      const method = path.endsWith('run') ? 'POST' : 'DELETE';
      expect((await d.request(method, `/daemon/server/${id}/${path}`, { token: admin })).status).toBe(404);
    }
    const noName = await d.request('POST', `/daemon/server/${id}/tasks`, {
      token: admin,
      body: { name: ' ' },
    });
    expect(((await noName.json()) as { error: { code: string } }).error.code).toBe('ErrFieldInvalid');
    const unknown = await d.request('POST', `/daemon/server/${id}/tasks`, {
      token: admin,
      body: { name: 'x', operations: [{ type: 'steamgamedl', appId: '1' }] },
    });
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('ErrUnknownProcessor');
  });

  it('needs editServerData (or admin)', async () => {
    const without = await d.user(id, ['viewServerConsole', 'startServer']);
    const withData = await d.user(id, ['editServerData']);
    const other = await d.user('another', ['editServerData']);
    expect((await d.request('GET', `/daemon/server/${id}/tasks`, { token: without })).status).toBe(403);
    expect((await d.request('GET', `/daemon/server/${id}/tasks`, { token: other })).status).toBe(403);
    const created = await d.request('POST', `/daemon/server/${id}/tasks`, {
      token: withData,
      body: { name: 'mine', operations: [] },
    });
    expect(created.status).toBe(200);
    expect((await d.request('GET', `/daemon/server/${id}/tasks`, { token: withData })).status).toBe(200);
    expect((await d.request('GET', `/daemon/server/missing/tasks`, { token: admin })).status).toBe(404);
  });

  it('reports tasks as a feature', async () => {
    const features = await (await d.request('GET', '/daemon/features', { token: admin })).json();
    expect(features).toMatchObject({ tasks: true });
  });

  it('removes the tasks file with the server', async () => {
    const file = join(d.config.serversDir ?? '', `${id}.tasks.json`);
    await access(file);
    expect((await d.request('DELETE', `/daemon/server/${id}`, { token: admin })).status).toBe(204);
    await expect(access(file)).rejects.toThrow();
  });
});
