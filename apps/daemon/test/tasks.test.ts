/**
 * Scheduled tasks on a real daemon, at the routes: bad schedules and bodies, permissions, who may save and
 * trigger which steps (a task runs with its owner's access, so a saver or trigger must be able to run every
 * step by hand), and runs that cannot learn their owner's access failing closed — no panel credential, an
 * unreachable panel, tasks stored before owners existed, owners named by a definition. Runs with a real panel
 * answering the owner's access are in e2e/tasks-runs.test.ts and e2e/attacks/tasks.test.ts.
 */
import { access, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerPermission, Task, TaskListResponse } from '@hearth/contract';
import { waitFor } from './helpers/poll';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

interface ErrorBody {
  error: { code: string; msg: string; metadata?: Record<string, unknown> };
}

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

function helpers(d: () => TestDaemon, id: string) {
  const list = async (token?: string) =>
    (
      (await (
        await d().request('GET', `/daemon/server/${id}/tasks`, { token: token ?? (await d().admin()) })
      ).json()) as TaskListResponse
    ).tasks;
  const consoleText = async () =>
    (
      (await (
        await d().request('GET', `/daemon/server/${id}/console`, { token: await d().admin() })
      ).json()) as { logs: string }
    ).logs;
  const create = async (body: unknown, token?: string) => {
    const res = await d().request('POST', `/daemon/server/${id}/tasks`, {
      token: token ?? (await d().admin()),
      body,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { id: string }).id;
  };
  const run = async (taskId: string, token?: string) =>
    d().request('POST', `/daemon/server/${id}/tasks/${taskId}/run`, { token: token ?? (await d().admin()) });
  const finished = (taskId: string) =>
    waitFor(async () => {
      const t: Task | undefined = (await list())[taskId];
      return t?.lastRun && t.lastRun.result !== 'running' ? t.lastRun : null;
    }, `task ${taskId} run recorded`);
  return { list, consoleText, create, run, finished };
}

describe('tasks', () => {
  let d: TestDaemon;
  let admin: string;
  const id = 'tasks-game';
  const h = helpers(() => d, id);

  beforeAll(async () => {
    d = await startTestDaemon({ tasks: { timeZone: '' } });
    admin = await d.admin();
    const created = await d.request('PUT', `/daemon/server/${id}`, {
      token: admin,
      body: fakeGameDefinition(),
    });
    expect(created.status).toBe(200);
  });
  afterAll(async () => d.close());

  const remove = async (taskId: string) =>
    expect((await d.request('DELETE', `/daemon/server/${id}/tasks/${taskId}`, { token: admin })).status).toBe(
      204,
    );
  const user = (perms: ServerPermission[], sub = 'user-2') => d.token({ server: id, perms, sub });

  it('refuses invalid schedules with ErrInvalidCron and keeps valid forms', async () => {
    for (const cronSchedule of ['61 * * * *', '@every 1s', '0 0 * *', 'not cron', '? * * * *']) {
      const res = await d.request('POST', `/daemon/server/${id}/tasks`, {
        token: admin,
        body: { name: 'x', cronSchedule, operations: [] },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).error).toMatchObject({
        code: 'ErrInvalidCron',
        msg: 'invalid task schedule',
      });
    }
    const ids = [];
    for (const cronSchedule of ['@daily', '0 4 ? * *', '0 0 */1 * *', '  ']) {
      ids.push(await h.create({ name: `n${ids.length}`, cronSchedule, operations: [] }));
    }
    const tasks = await h.list();
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
    expect(((await missing.json()) as ErrorBody).error.code).toBe('ErrTaskNotFound');
    for (const path of [`tasks/nope/run`, `tasks/nope`]) {
      const method = path.endsWith('run') ? 'POST' : 'DELETE';
      expect((await d.request(method, `/daemon/server/${id}/${path}`, { token: admin })).status).toBe(404);
    }
    const noName = await d.request('POST', `/daemon/server/${id}/tasks`, {
      token: admin,
      body: { name: ' ' },
    });
    expect(((await noName.json()) as ErrorBody).error.code).toBe('ErrFieldInvalid');
    const unknown = await d.request('POST', `/daemon/server/${id}/tasks`, {
      token: admin,
      body: { name: 'x', operations: [{ type: 'steamgamedl', appId: '1' }] },
    });
    expect(((await unknown.json()) as ErrorBody).error.code).toBe('ErrUnknownProcessor');
  });

  it('needs editServerData (or admin)', async () => {
    const without = await user(['viewServerConsole', 'startServer']);
    const withData = await user(['editServerData']);
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
    await remove(((await created.json()) as { id: string }).id);
  });

  it('saving refuses a step the saver could not do by hand: 403 ErrNoPermission naming it, nothing stored', async () => {
    const dataOnly = await user(['editServerData']);
    const refused: Array<[ServerPermission[], Record<string, unknown>]> = [
      [['editServerData'], { type: 'command', commands: ['id > pwned.txt'] }],
      [
        ['editServerData', 'putServerFiles', 'startServer', 'stopServer'],
        { type: 'command', commands: ['id'] },
      ],
      [['editServerData'], { type: 'start' }],
      [['editServerData', 'startServer'], { type: 'stop' }],
      [['editServerData', 'startServer'], { type: 'kill' }],
      [['editServerData', 'stopServer'], { type: 'restart' }],
      [['editServerData'], { type: 'console', command: 'op me' }],
      [['editServerData'], { type: 'writefile', target: 'a.txt', text: 'x' }],
      [['editServerData', 'putServerFiles'], { type: 'alterfile', file: 'a.txt', search: 'a', replace: 'b' }],
      [['editServerData', 'putServerFiles'], { type: 'download', files: ['http://example.com/x'] }],
    ];
    for (const [perms, op] of refused) {
      const token = await user(perms);
      const res = await d.request('POST', `/daemon/server/${id}/tasks`, {
        token,
        body: { name: 'sneaky', operations: [{ type: 'sleep', seconds: 1 }, op] },
      });
      expect(res.status, `${String(op.type)} with ${perms.join(',')}`).toBe(403);
      expect(((await res.json()) as ErrorBody).error).toMatchObject({
        code: 'ErrNoPermission',
        metadata: { operation: op.type },
      });
    }
    expect(Object.values(await h.list(dataOnly)).map((t) => t.name)).not.toContain('sneaky');
    // The same steps with the flags doing them by hand needs are saved; raw commands only by an admin.
    const allowed = await h.create(
      {
        name: 'allowed',
        operations: [
          { type: 'console', command: 'say hi' },
          { type: 'restart' },
          { type: 'writefile', target: 'a.txt', text: 'x' },
        ],
      },
      await user(['editServerData', 'sendServerConsole', 'startServer', 'stopServer', 'putServerFiles']),
    );
    const command = await h.create({ name: 'admin', operations: [{ type: 'command', commands: ['id'] }] });
    await remove(allowed);
    await remove(command);
  });

  it('updating takes ownership, so it needs every step too; an admin’s command task stays untouched', async () => {
    const taskId = await h.create({ name: 'root', operations: [{ type: 'command', commands: ['id'] }] });
    const before = (await h.list())[taskId];
    const dataOnly = await user(['editServerData']);
    for (const body of [
      { name: 'root', operations: [{ type: 'command', commands: ['id'] }] },
      { name: 'root', operations: [{ type: 'command', commands: ['id; head /etc/shadow'] }] },
    ]) {
      const res = await d.request('PUT', `/daemon/server/${id}/tasks/${taskId}`, { token: dataOnly, body });
      expect(res.status).toBe(403);
      expect(((await res.json()) as ErrorBody).error).toMatchObject({
        code: 'ErrNoPermission',
        metadata: { operation: 'command' },
      });
    }
    expect((await h.list())[taskId]).toEqual(before);
    // Replacing its steps with ones the user may run is an ordinary save: the task is theirs from then on.
    const replaced = await d.request('PUT', `/daemon/server/${id}/tasks/${taskId}`, {
      token: dataOnly,
      body: { name: 'mine now', operations: [{ type: 'sleep', seconds: 1 }] },
    });
    expect(replaced.status).toBe(204);
    await remove(taskId);
  });

  it('triggering by hand needs every step: an admin’s command task is not run by an editServerData holder', async () => {
    const marker = join(d.config.serversDir ?? '', id, 'triggered.txt');
    const taskId = await h.create({
      name: 'admin only',
      operations: [{ type: 'command', commands: ['touch triggered.txt'] }],
    });
    for (const perms of [
      ['editServerData'],
      ['editServerData', 'putServerFiles', 'startServer', 'stopServer', 'sendServerConsole'],
    ] as ServerPermission[][]) {
      const res = await h.run(taskId, await user(perms));
      expect(res.status).toBe(403);
      expect(((await res.json()) as ErrorBody).error).toMatchObject({
        code: 'ErrNoPermission',
        metadata: { operation: 'command' },
      });
    }
    expect((await h.list())[taskId]?.lastRun).toBeNull();
    await expect(access(marker)).rejects.toThrow();
    await remove(taskId);
  });

  it('does not show the owner in the listing', async () => {
    const taskId = await h.create({ name: 'quiet', operations: [] });
    expect(Object.keys((await h.list())[taskId] ?? {})).not.toContain('owner');
    await remove(taskId);
  });

  it('a node without a panel credential runs no task: failed, reason in the console and the last run', async () => {
    const taskId = await h.create({
      name: 'Blind',
      operations: [{ type: 'writefile', target: 'b.txt', text: 'x' }],
    });
    expect((await h.run(taskId)).status).toBe(202);
    const lastRun = await h.finished(taskId);
    expect(lastRun).toMatchObject({ result: 'failed' });
    expect(lastRun.error).toMatch(
      /^not run: this node has no panel credential \(panelUrl and sftp\.clientSecret/,
    );
    const text = await h.consoleText();
    expect(text).toContain('[DAEMON] Task Blind not run: this node has no panel credential');
    expect(text).not.toContain('Running task Blind');
    await expect(access(join(d.config.serversDir ?? '', id, 'b.txt'))).rejects.toThrow();
    await remove(taskId);
  });

  it('tasks stored before owners existed do not run and say to save them again', async () => {
    const taskId = await h.create({ name: 'Old', operations: [] });
    const file = join(d.config.serversDir ?? '', `${id}.tasks.json`);
    const stored = JSON.parse(await readFile(file, 'utf8')) as { tasks: Record<string, { owner?: unknown }> };
    for (const task of Object.values(stored.tasks)) delete task.owner; // as a daemon before owners wrote it
    await writeFile(file, JSON.stringify(stored));
    expect((await d.request('POST', `/daemon/server/${id}/reload`, { token: admin })).status).toBe(204);
    expect((await h.run(taskId)).status).toBe(202);
    const lastRun = await h.finished(taskId);
    expect(lastRun.error).toBe(
      'not run: the task has no owner (it was stored before tasks had owners); save it again and it runs ' +
        'with its saver’s access',
    );
    await remove(taskId);
  });

  it('an owner named in a definition’s tasks map is ignored: imported tasks have none', async () => {
    const imported = 'tasks-imported';
    const definition = {
      ...fakeGameDefinition(),
      tasks: {
        t1: { name: 'Planted', owner: 'user-1', operations: [{ type: 'command', commands: ['id'] }] },
      },
    };
    const put = await d.request('PUT', `/daemon/server/${imported}`, { token: admin, body: definition });
    expect(put.status).toBe(200);
    // Imported when the definition is (re)loaded and no tasks file exists yet.
    const reload = await d.request('POST', `/daemon/server/${imported}/reload`, { token: admin });
    expect(reload.status).toBe(204);
    const file = join(d.config.serversDir ?? '', `${imported}.tasks.json`);
    const saved = JSON.parse(await readFile(file, 'utf8')) as unknown;
    expect(saved).toMatchObject({ tasks: { t1: { name: 'Planted', owner: null } } });
    expect(
      (await d.request('POST', `/daemon/server/${imported}/tasks/t1/run`, { token: admin })).status,
    ).toBe(202);
    const lastRun = await waitFor(async () => {
      const res = await d.request('GET', `/daemon/server/${imported}/tasks`, { token: admin });
      const run = ((await res.json()) as TaskListResponse).tasks.t1?.lastRun;
      return run && run.result !== 'running' ? run : null;
    }, 'imported task run recorded');
    expect(lastRun.error).toMatch(/^not run: the task has no owner/);
    expect((await d.request('DELETE', `/daemon/server/${imported}`, { token: admin })).status).toBe(204);
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

describe('tasks on a node whose panel cannot be reached', () => {
  let d: TestDaemon;
  const id = 'tasks-unreachable';
  const h = helpers(() => d, id);

  beforeAll(async () => {
    d = await startTestDaemon({
      panelUrl: `http://127.0.0.1:${await closedPort()}`,
      sftp: { enabled: false, clientSecret: 'a-node-secret' },
    });
    const put = await d.request('PUT', `/daemon/server/${id}`, {
      token: await d.admin(),
      body: fakeGameDefinition(),
    });
    expect(put.status).toBe(200);
  });
  afterAll(async () => d?.close());

  it('fails the run closed, saying the panel could not be reached', async () => {
    const taskId = await h.create({ name: 'Cut off', operations: [{ type: 'mkdir', target: 'never' }] });
    expect((await h.run(taskId)).status).toBe(202);
    const lastRun = await h.finished(taskId);
    expect(lastRun).toMatchObject({ result: 'failed' });
    expect(lastRun.error).toMatch(
      /^not run: the panel could not be reached to check the task owner’s access/,
    );
    expect(await h.consoleText()).toContain('Task Cut off not run: the panel could not be reached');
    await expect(access(join(d.config.serversDir ?? '', id, 'never'))).rejects.toThrow();
  });
});
