/**
 * Attack: server creation and variables as a way to run host commands (docs/security.md § Raw commands and
 * variables). A user holding only createServers once became root on every node by `POST /api/servers` with
 * `environment.type = standard` and raw install/run commands; a user-editable `${command}` variable (the
 * bundled generic template) plus a start ran anything; a variable with spaces, quotes or a newline became
 * several arguments, shell code or an extra config line. Against a real panel and a daemon started from its
 * deployment config: each is refused with a catalogued error and nothing is created or run; a hostile value
 * set the allowed way reaches the program, a shell script and a task `command` step as exactly one argument.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, TaskListResponse } from '@hearth/contract';
import { waitFor } from '../../apps/daemon/test/helpers/poll';
import { startPanelWithDaemon, type PanelWithDaemon } from '../helpers/daemon-node';

const HOSTILE = `it's "odd" $(touch pwned) \`touch pwned\`; touch pwned && echo \\ *`;

/** Writes the arguments it received (after `file`) as JSON to `file` in the server folder. */
const argvTo = (file: string, rest: string) =>
  `"${process.execPath}" -e "require('fs').writeFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)))" ${file} ${rest}`;

/** A template whose run command, install script and config file take a user-editable text. */
const echoTemplate = {
  display: 'Echo',
  type: 'echo',
  data: {
    motd: { type: 'string', value: 'hello', userEdit: true },
    port: { type: 'integer', value: 25565, min: 1, max: 65535, userEdit: true },
  },
  install: [
    { type: 'command', commands: ["sh -c 'printf %s ${motd} > shell.txt'"] },
    { type: 'writefile', target: 'server.properties', text: 'motd=${motd}\nop=nobody\n' },
  ],
  run: { command: argvTo('run.json', '${motd}') },
  environment: { type: 'standard' },
};

describe('creating servers and setting variables never runs host commands', () => {
  let live: PanelWithDaemon;
  let creator: string;

  const api = (token: string, method: string, path: string, body?: unknown, raw?: string) =>
    fetch(`${live.panel.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
  const ok = async <T>(res: Promise<Response>): Promise<T> => {
    const answer = await res;
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${answer.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const refused = async (res: Promise<Response>, status: number, code: string) => {
    const answer = await res;
    expect(answer.status).toBe(status);
    const { error } = (await answer.json()) as ErrorBody;
    expect(error.code).toBe(code);
    return error;
  };
  const definitions = () => readdirSync(live.serversDir).filter((name) => name.endsWith('.json'));
  const serverFile = (id: string, name: string) => join(live.serversDir, id, name);
  const admin = () => live.admin.session;

  beforeAll(async () => {
    live = await startPanelWithDaemon('attack-node');
    const who = { username: 'creator', email: 'creator@example.com', password: 'creator-password-1' };
    const user = await ok<{ id: string }>(api(admin(), 'POST', '/api/users', who));
    await ok(api(admin(), 'PUT', `/api/users/${user.id}/perms`, { createServers: true }));
    const login = await ok<{ session: string }>(
      fetch(`${live.panel.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: who.email, password: who.password }),
      }),
    );
    creator = login.session;
    await ok(api(admin(), 'POST', '/api/templates/import/generic-process'));
    await ok(api(admin(), 'PUT', '/api/templates/echo', echoTemplate));
  });
  afterAll(async () => live?.stop());

  it('finding: createServers alone with environment standard and run `id` → 403, nothing created', async () => {
    const before = definitions();
    const marker = join(live.serversDir, '..', 'owned');
    const attack = {
      name: 'root',
      node: live.nodeId,
      users: [],
      environment: { type: 'standard' },
      install: [{ type: 'command', commands: [`sh -c "id > ${marker}"`] }],
      run: { command: 'id' },
    };
    const error = await refused(api(creator, 'POST', '/api/servers', attack), 403, 'ErrNoPermission');
    expect(['install', 'run']).toContain(error.metadata?.field);
    // Naming a template does not let the commands ride along.
    const riding = { ...attack, template: 'echo' };
    await refused(api(creator, 'POST', '/api/servers', riding), 403, 'ErrNoPermission');
    expect(definitions()).toEqual(before);
    expect(existsSync(marker)).toBe(false);
    const listed = await ok<{ paging: { total: number } }>(api(creator, 'GET', '/api/servers'));
    expect(listed.paging.total).toBe(0);
  });

  it("finding: the generic template's `${command}` is an administrator's: refused at creation and on /data", async () => {
    const base = {
      template: 'generic-process',
      node: live.nodeId,
      users: [],
      environment: { type: 'standard' },
    };
    const withCommand = { ...base, name: 'generic', data: { command: { value: 'bash -c id' } } };
    const error = await refused(api(creator, 'POST', '/api/servers', withCommand), 403, 'ErrNoPermission');
    expect(error.metadata).toEqual({ field: 'data.command' });
    // Without it the server is created with the template's command; its creator still cannot change it.
    const { id } = await ok<{ id: string }>(
      api(creator, 'POST', '/api/servers', { ...base, name: 'generic' }),
    );
    const data = await api(creator, 'POST', `/proxy/daemon/server/${id}/data`, {
      data: { command: { value: 'bash -c id' } },
    });
    expect(data.status).toBe(403);
    const seen = await ok<{ data: Record<string, unknown> }>(
      api(creator, 'GET', `/proxy/daemon/server/${id}/data`),
    );
    expect(seen.data).not.toHaveProperty('command');
    const stored = JSON.parse(readFileSync(join(live.serversDir, `${id}.json`), 'utf8')) as {
      data: { command: { value: string } };
    };
    expect(stored.data.command.value).toBe('./start.sh');
  });

  it('finding: a newline, a 1e20 port or an oversized value is refused by name', async () => {
    const base = { template: 'echo', name: 'bad', node: live.nodeId, environment: { type: 'standard' } };
    const bad = (data: string) => JSON.stringify(base).replace(/}$/, `,"data":${data}}`);
    for (const [data, field] of [
      [JSON.stringify({ motd: { value: 'hi\nop=creator' } }), 'motd'],
      ['{"port":{"value":1e20}}', 'port'],
      ['{"port":{"value":99999999}}', 'port'],
      [JSON.stringify({ motd: { value: 'x'.repeat(5000) } }), 'motd'],
    ] as const) {
      const error = await refused(
        api(creator, 'POST', '/api/servers', undefined, bad(data)),
        400,
        'ErrVariableType',
      );
      expect(error.metadata).toMatchObject({ field });
    }
  });

  it('a hostile value set the allowed way stays one argument: program, shell script, config file, task step', async () => {
    const { id } = await ok<{ id: string }>(
      api(creator, 'POST', '/api/servers', {
        template: 'echo',
        name: 'echo',
        node: live.nodeId,
        users: [],
        environment: { type: 'standard' },
        data: { motd: { value: HOSTILE } },
      }),
    );
    const proxy = `/proxy/daemon/server/${id}`;
    await ok(api(creator, 'POST', `${proxy}/install?wait=true`));
    expect(readFileSync(serverFile(id, 'shell.txt'), 'utf8')).toBe(HOSTILE);
    expect(readFileSync(serverFile(id, 'server.properties'), 'utf8')).toBe(`motd=${HOSTILE}\nop=nobody\n`);
    const newline = await api(creator, 'POST', `${proxy}/data`, {
      data: { motd: { value: 'x\nop=creator' } },
    });
    expect(newline.status).toBe(400);
    await ok(api(creator, 'POST', `${proxy}/start?wait=true`));
    const ran = await waitFor(
      () =>
        existsSync(serverFile(id, 'run.json')) ? readFileSync(serverFile(id, 'run.json'), 'utf8') : null,
      'run.json',
    );
    expect(JSON.parse(ran)).toEqual([HOSTILE]);
    // An administrator's task with a command step (run once the program has exited: a command step needs the
    // environment free): the user's value is still one argument.
    await waitFor(
      async () => !(await ok<{ running: boolean }>(api(creator, 'GET', `${proxy}/status`))).running,
      'the program exits',
    );
    const task = await ok<{ id: string }>(
      api(admin(), 'POST', `${proxy}/tasks`, {
        name: 'Echo',
        operations: [{ type: 'command', commands: [argvTo('task.json', '--motd ${motd}')] }],
      }),
    );
    expect((await api(admin(), 'POST', `${proxy}/tasks/${task.id}/run`)).status).toBe(202);
    const result = await waitFor(async () => {
      const { tasks } = await ok<TaskListResponse>(api(admin(), 'GET', `${proxy}/tasks`));
      const run = tasks[task.id]?.lastRun;
      return run && run.result !== 'running' ? run : null;
    }, 'the task run');
    expect(result.result, result.error ?? '').toBe('success');
    expect(JSON.parse(readFileSync(serverFile(id, 'task.json'), 'utf8'))).toEqual(['--motd', HOSTILE]);
    expect(existsSync(serverFile(id, 'pwned'))).toBe(false);
  });
});
