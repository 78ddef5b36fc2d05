/**
 * Task runs on a real daemon whose panel answers the owner's access (docs/daemon.md § Tasks), driven through
 * the panel's proxy as an administrator: a `* * * * *` task fires when the daemon's scheduler clock (moved by
 * the suite) crosses a minute, and its console shows the steps; a manual run says a warning, sleeps, stops,
 * waits and starts; a failed step is recorded; an overlapping run is skipped; tasks survive a daemon restart and
 * a definition reload re-reads the tasks file.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task, TaskListResponse } from '@hearth/contract';
import { call } from '../apps/panel/test/helpers/app';
import { waitFor } from '../apps/daemon/test/helpers/poll';
import { taskNode, type TaskNode } from './helpers/task-node';

describe('task runs with the owner’s access from the panel', () => {
  let n: TaskNode;
  let base: string;
  let proxy: string;

  beforeAll(async () => {
    n = await taskNode('sqlite');
    proxy = `/proxy/daemon/server/${n.serverId}`;
    base = `${proxy}/tasks`;
  });
  afterAll(() => n?.close());

  const as = (method: string, url: string, body?: unknown) =>
    call(n.t, method, url, { token: n.admin.token, body });
  const list = async () => (await as('GET', base)).json<TaskListResponse>().tasks;
  const consoleText = async () => (await as('GET', `${proxy}/console`)).json<{ logs: string }>().logs;
  const waitConsole = (text: string) =>
    waitFor(async () => (await consoleText()).includes(text), `console: ${text}`);
  const create = async (body: unknown) => {
    const res = await as('POST', base, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string }>().id;
  };
  const remove = async (taskId: string) =>
    expect((await as('DELETE', `${base}/${taskId}`)).statusCode).toBe(204);

  /** The task's run at `at` (unix ms on the scheduler clock), once it has a result. */
  const runAt = (taskId: string, at: number) =>
    waitFor(
      async () => {
        const t: Task | undefined = (await list())[taskId];
        return t?.lastRun?.at === at && t.lastRun.result !== 'running' ? t : null;
      },
      `the run at ${new Date(at).toISOString()}`,
    );

  it('runs a scheduled task on the running server when its minute comes, each step in the console', async () => {
    expect((await as('POST', `${proxy}/start?wait=true`)).statusCode).toBe(204);
    await waitConsole('fake-game ready');
    const taskId = await create({
      name: 'Tick',
      cronSchedule: '* * * * *',
      operations: [
        { type: 'console', command: 'say tick' },
        { type: 'writefile', target: 'tick.txt', text: 'memory ${memory}' },
      ],
    });
    const due = n.clock.nextMinute();
    expect((await list())[taskId]).toMatchObject({ nextRun: due, lastRun: null });
    n.clock.advanceTo(due - 1);
    expect((await list())[taskId]).toMatchObject({ nextRun: due, lastRun: null });
    n.clock.advanceTo(due);
    await waitConsole('Task Tick finished');
    const text = await consoleText();
    expect(text).toContain('[DAEMON] Running task Tick');
    expect(text).toContain('[DAEMON] Task Tick step 1/2 (console: say tick)');
    expect(text).toContain('echo: say tick');
    expect(text).toContain('[DAEMON] Task Tick step 2/2 (writefile)');
    expect(await readFile(join(n.serversDir, n.serverId, 'tick.txt'), 'utf8')).toBe('memory 512');
    const task = await runAt(taskId, due);
    expect(task).toMatchObject({
      id: taskId,
      name: 'Tick',
      cronSchedule: '* * * * *',
      nextRun: due + 60_000,
    });
    expect(task.lastRun?.result).toBe('success');
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
    expect((await list())[taskId]).toMatchObject({ cronSchedule: null, nextRun: null, lastRun: null });
    expect((await as('POST', `${base}/${taskId}/run`)).statusCode).toBe(202);
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
    expect((await as('GET', `${proxy}/status`)).json()).toMatchObject({ running: true });
    await waitFor(async () => (await list())[taskId]?.lastRun?.result === 'success', 'success recorded');
    await remove(taskId);
  });

  it('records a failed step and its reason', async () => {
    const taskId = await create({ name: 'Bad', operations: [{ type: 'move', source: 'nope', target: 'x' }] });
    await as('POST', `${base}/${taskId}/run`);
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
      cronSchedule: '* * * * *',
      operations: [{ type: 'sleep', seconds: 60 }],
    });
    n.clock.advanceTo(n.clock.nextMinute());
    await waitConsole('Task Slow step 1/1 (sleep 60 s)');
    n.clock.advanceTo(n.clock.nextMinute());
    await waitConsole('Task Slow skipped (schedule): its previous run is still going');
    await remove(taskId);
  });

  it('keeps the schedule, the owner and the last run across a daemon restart', async () => {
    const taskId = await create({
      name: 'Beat',
      cronSchedule: '* * * * *',
      operations: [{ type: 'mkdir', target: 'beat' }],
    });
    const first = n.clock.nextMinute();
    n.clock.advanceTo(first);
    expect((await runAt(taskId, first)).lastRun?.result).toBe('success');
    await n.restartDaemon();
    const second = n.clock.nextMinute();
    expect((await list())[taskId]).toMatchObject({
      name: 'Beat',
      cronSchedule: '* * * * *',
      lastRun: { at: first, result: 'success' },
      nextRun: second,
    });
    // The restarted daemon still knows the owner: its scheduled run is admitted and succeeds.
    n.clock.advanceTo(second);
    expect((await runAt(taskId, second)).lastRun?.result).toBe('success');
  });

  it('re-reads the tasks file when the definition is reloaded', async () => {
    const file = join(n.serversDir, `${n.serverId}.tasks.json`);
    // Nothing runs (and so nothing rewrites the file) until the suite moves the scheduler's clock.
    const stored = JSON.parse(await readFile(file, 'utf8')) as { tasks: Record<string, { name: string }> };
    for (const task of Object.values(stored.tasks)) task.name = 'Renamed by hand';
    await writeFile(file, JSON.stringify(stored));
    expect((await as('POST', `${proxy}/reload`)).statusCode).toBe(204);
    expect(Object.values(await list()).map((t) => t.name)).toEqual(['Renamed by hand']);
    n.clock.advanceTo(n.clock.nextMinute());
    await waitConsole('Task Renamed by hand finished');
  });
});
