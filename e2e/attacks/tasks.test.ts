/**
 * Attack: tasks as a way around the server flags (docs/security.md § Tasks). A user holding only editServerData
 * once ran `bash -c "id; head /etc/shadow"` as the daemon's user through a `command` task, and task steps
 * start/stop/kill/console skipped their flags. Against a real panel and a daemon started from its deployment
 * config, on every dialect: saving or triggering a step the caller could not do by hand is 403
 * ErrNoPermission and nothing runs; a task runs with its owner's access as it is at run time, so a demoted
 * owner's step is refused and a removed owner's task does not run; a server-scoped OAuth2 token gets the same
 * refusals; a permitted task still works.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskLastRun, TaskListResponse } from '@hearth/contract';
import { call, type TestUser } from '../../apps/panel/test/helpers/app';
import { DIALECTS } from '../../apps/panel/test/helpers/dialects';
import { waitFor } from '../../apps/daemon/test/helpers/poll';
import { taskNode, type TaskNode } from '../helpers/task-node';

interface ErrorBody {
  error?: { code?: string; metadata?: Record<string, unknown> };
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe.each(DIALECTS)('tasks cannot exceed their owner’s flags on %s', (dialect) => {
  let n: TaskNode;
  let proxy: string;
  let base: string;

  beforeAll(async () => {
    n = await taskNode(dialect);
    proxy = `/proxy/daemon/server/${n.serverId}`;
    base = `${proxy}/tasks`;
    const started = await call(n.t, 'POST', `${proxy}/start?wait=true`, { token: n.admin.token });
    expect(started.statusCode, started.body).toBe(204);
  });
  afterAll(() => n?.close());

  const hit = (token: string, method: string, url: string, body?: unknown) =>
    call(n.t, method, url, { token, body });
  const refusedFor = (res: { statusCode: number; json: () => unknown }, operation: string) => {
    expect(res.statusCode).toBe(403);
    expect((res.json() as ErrorBody).error).toMatchObject({
      code: 'ErrNoPermission',
      metadata: { operation },
    });
  };
  const tasks = async () => (await hit(n.admin.token, 'GET', base)).json<TaskListResponse>().tasks;
  const consoleText = async () =>
    (await hit(n.admin.token, 'GET', `${proxy}/console`)).json<{ logs: string }>().logs;
  const create = async (token: string, body: unknown) => {
    const res = await hit(token, 'POST', base, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string }>().id;
  };
  const settled = (taskId: string, accept: (run: TaskLastRun) => boolean = () => true) =>
    waitFor(async () => {
      const run = (await tasks())[taskId]?.lastRun;
      return run && run.result !== 'running' && accept(run) ? run : null;
    }, `a settled run of ${taskId}`);
  const marker = (name: string) => join(n.serversDir, n.serverId, name);

  it('editServerData alone: a command task is refused (create and update) and nothing runs', async () => {
    const user = await n.user({ editServerData: true });
    const command = {
      type: 'command',
      commands: ['bash -c "id > pwned.txt; head /etc/shadow >> pwned.txt"'],
    };
    refusedFor(await hit(user.token, 'POST', base, { name: 'root', operations: [command] }), 'command');
    const harmless = await create(user.token, {
      name: 'harmless',
      operations: [{ type: 'sleep', seconds: 0.1 }],
    });
    const swapped = await hit(user.token, 'PUT', `${base}/${harmless}`, {
      name: 'root',
      operations: [command],
    });
    refusedFor(swapped, 'command');
    expect((await hit(user.token, 'POST', `${base}/${harmless}/run`)).statusCode).toBe(202);
    expect(await settled(harmless)).toMatchObject({ result: 'success' });
    expect((await tasks())[harmless]?.operations).toEqual([{ type: 'sleep', seconds: 0.1 }]);
    for (const type of ['download', 'mojangdl', 'forgedl', 'fabricdl']) {
      const res = await hit(user.token, 'POST', base, { name: type, operations: [{ type, files: ['x'] }] });
      expect([400, 403], `${type}: ${res.body}`).toContain(res.statusCode);
      if (res.statusCode === 403) refusedFor(res, type);
    }
    expect(await exists(marker('pwned.txt'))).toBe(false);
  });

  it('power and console steps need the flags doing them by hand needs', async () => {
    const user = await n.user({ editServerData: true, viewServerConsole: true });
    for (const op of [
      { type: 'start' },
      { type: 'stop' },
      { type: 'kill' },
      { type: 'restart' },
      { type: 'console', command: 'op attacker' },
      { type: 'writefile', target: 'x.txt', text: 'x' },
    ]) {
      refusedFor(await hit(user.token, 'POST', base, { name: 'power', operations: [op] }), op.type);
    }
    expect(Object.values(await tasks()).map((t) => t.name)).not.toContain('power');
  });

  it('an administrator’s command task cannot be triggered by an editServerData holder', async () => {
    const taskId = await create(n.admin.token, {
      name: 'admin command',
      operations: [{ type: 'command', commands: ['touch admin-marker.txt'] }],
    });
    const user = await n.user({ editServerData: true, sendServerConsole: true, putServerFiles: true });
    refusedFor(await hit(user.token, 'POST', `${base}/${taskId}/run`), 'command');
    expect((await tasks())[taskId]?.lastRun).toBeNull();
    expect(await exists(marker('admin-marker.txt'))).toBe(false);
    // The same trigger by its administrator runs it (commands run while the server is stopped): the marker
    // is what a run would have left.
    expect((await hit(n.admin.token, 'POST', `${proxy}/stop?wait=true`)).statusCode).toBe(204);
    expect((await hit(n.admin.token, 'POST', `${base}/${taskId}/run`)).statusCode).toBe(202);
    const ran = await settled(taskId);
    expect(ran, ran.error).toMatchObject({ result: 'success' });
    expect(await exists(marker('admin-marker.txt'))).toBe(true);
    expect((await hit(n.admin.token, 'POST', `${proxy}/start?wait=true`)).statusCode).toBe(204);
  });

  it('an owner demoted after saving: the next scheduled and manual runs refuse the step', async () => {
    const owner = await n.user({ editServerData: true, putServerFiles: true });
    const every = await create(owner.token, {
      name: 'Demoted tick',
      cronSchedule: '* * * * *',
      operations: [{ type: 'writefile', target: 'tick.txt', text: 'tick' }],
    });
    const manual = await create(owner.token, {
      name: 'Demoted manual',
      operations: [{ type: 'writefile', target: 'manual.txt', text: 'manual' }],
    });
    // The scheduler's clock crosses a minute: the schedule fires with the owner's flags as they are then.
    const before = n.clock.nextMinute();
    n.clock.advanceTo(before);
    expect(await settled(every, (run) => run.at === before)).toMatchObject({ result: 'success' });
    await n.grant(owner.email, { editServerData: true }); // putServerFiles removed in the panel
    const reason = 'refused: the task’s owner may not run writefile steps on this server';
    const after = n.clock.nextMinute();
    n.clock.advanceTo(after);
    const refused = await settled(every, (run) => run.at === after);
    expect(refused).toMatchObject({ result: 'failed', error: `step 1: ${reason}` });
    // The owner no longer may trigger it; an administrator may, and it still runs with the owner's access.
    refusedFor(await hit(owner.token, 'POST', `${base}/${manual}/run`), 'writefile');
    expect((await hit(n.admin.token, 'POST', `${base}/${manual}/run`)).statusCode).toBe(202);
    expect(await settled(manual)).toMatchObject({ result: 'failed', error: `step 1: ${reason}` });
    expect(await exists(marker('manual.txt'))).toBe(false);
    expect(await consoleText()).toContain(`Task Demoted manual step 1/1 (writefile) failed: ${reason}`);
    expect((await hit(n.admin.token, 'DELETE', `${base}/${every}`)).statusCode).toBe(204);
  });

  it('an owner deleted, or removed from the server, no longer runs tasks', async () => {
    const sayAs = async (user: TestUser, words: string) => {
      const taskId = await create(user.token, {
        name: words,
        operations: [{ type: 'console', command: `say ${words}` }],
      });
      expect((await hit(user.token, 'POST', `${base}/${taskId}/run`)).statusCode).toBe(202);
      expect(await settled(taskId)).toMatchObject({ result: 'success' });
      return taskId;
    };
    const flags = { editServerData: true, sendServerConsole: true };
    const deleted = await n.user(flags);
    const removed = await n.user(flags);
    const deletedTask = await sayAs(deleted, 'from-deleted');
    const removedTask = await sayAs(removed, 'from-removed');
    expect((await hit(n.admin.token, 'DELETE', `/api/users/${deleted.id}`)).statusCode).toBe(204);
    const unbound = await hit(n.admin.token, 'DELETE', `/api/servers/${n.serverId}/user/${removed.email}`);
    expect(unbound.statusCode).toBe(204);
    for (const [taskId, why] of [
      [deletedTask, 'the task’s owner no longer exists or is not active'],
      [removedTask, 'the task’s owner no longer has access to this server'],
    ] as const) {
      const before = (await tasks())[taskId]?.lastRun?.at ?? 0;
      // Runs are stamped by the node's scheduler clock, which this suite moves by hand.
      n.clock.advanceBy(1);
      expect((await hit(n.admin.token, 'POST', `${base}/${taskId}/run`)).statusCode).toBe(202);
      const run = await settled(taskId, (r) => r.at > before);
      expect(run).toMatchObject({ result: 'failed', error: `not run: ${why}` });
    }
    const text = await consoleText();
    expect(text).toContain('Task from-deleted not run: the task’s owner no longer exists or is not active');
    expect(text.split('echo: say from-deleted').length - 1).toBe(1); // only the run before the deletion
    expect(text.split('echo: say from-removed').length - 1).toBe(1);
  });

  it('a server-scoped OAuth2 token of an editServerData holder gets the same refusals', async () => {
    const user = await n.user({ editServerData: true });
    const client = await hit(user.token, 'POST', `/api/servers/${n.serverId}/oauth2`, {
      name: 'bot',
      description: 'tasks',
    });
    expect(client.statusCode, client.body).toBe(200);
    const { id, secret } = client.json<{ id: string; secret: string }>();
    const issued = await call(n.t, 'POST', '/oauth2/token', {
      body: { grant_type: 'client_credentials', client_id: id, client_secret: secret },
    });
    expect(issued.statusCode, issued.body).toBe(200);
    const bot = issued.json<{ access_token: string }>().access_token;
    expect((await hit(bot, 'GET', base)).statusCode).toBe(200);
    const command = { type: 'command', commands: ['id > oauth-pwned.txt'] };
    refusedFor(await hit(bot, 'POST', base, { name: 'bot root', operations: [command] }), 'command');
    refusedFor(await hit(bot, 'POST', base, { name: 'bot start', operations: [{ type: 'start' }] }), 'start');
    const adminTask = await create(n.admin.token, { name: 'admin again', operations: [command] });
    refusedFor(await hit(bot, 'POST', `${base}/${adminTask}/run`), 'command');
    expect((await tasks())[adminTask]?.lastRun).toBeNull();
    expect(await exists(marker('oauth-pwned.txt'))).toBe(false);
  });

  it('a permitted task still works: a console command with sendServerConsole', async () => {
    const user = await n.user({ editServerData: true, sendServerConsole: true });
    const taskId = await create(user.token, {
      name: 'Greeting',
      operations: [{ type: 'console', command: 'say permitted' }],
    });
    expect((await hit(user.token, 'POST', `${base}/${taskId}/run`)).statusCode).toBe(202);
    expect(await settled(taskId)).toMatchObject({ result: 'success' });
    const text = await consoleText();
    expect(text).toContain('[DAEMON] Task Greeting step 1/1 (console: say permitted)');
    expect(text).toContain('echo: say permitted');
  });
});
