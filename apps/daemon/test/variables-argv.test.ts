/**
 * Variables never become code, on a real daemon with real processes (docs/daemon.md § Variables and
 * commands): a hostile value set by a user with editServerData reaches the run command and install `command`
 * steps as exactly one argument, and a template's own `sh -c` script receives it literally. Bad values are
 * refused by name; a user cannot set an admin-only variable. Task `command` operations take the same path
 * (the server's runCommand); e2e/attacks/creation.test.ts runs one through a real panel.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { waitFor } from './helpers/poll';
import { startTestDaemon, type TestDaemon } from './helpers/test-daemon';

const HOSTILE = `it's "odd" $(touch pwned) \`touch pwned\`; touch pwned && echo \\ ${'${serverId}'} *`;

/** A command that writes the arguments it received (after `file`) as JSON to `file` in the server folder. */
const argvTo = (file: string, rest: string) =>
  `"${process.execPath}" -e "require('fs').writeFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)))" ${file} ${rest}`;

function definition() {
  return {
    type: 'argv',
    data: {
      motd: { type: 'string', value: 'hello', userEdit: true },
      port: { type: 'integer', value: 25565, min: 1, max: 65535, userEdit: true },
      command: { type: 'string', value: 'unused', userEdit: false },
    },
    install: [
      { type: 'command', commands: [argvTo('install.json', 'a ${motd} b')] },
      {
        type: 'command',
        commands: ['sh -c \'printf %s ${motd} > shell.txt; printf %s "[${motd}]" >> shell.txt\''],
      },
    ],
    run: { command: argvTo('run.json', '--motd=${motd} ${motd} ${port}') },
    environment: { type: 'standard' },
  };
}

describe('variables stay single arguments on a real daemon', () => {
  let d: TestDaemon;
  let admin: string;
  let user: string;
  const id = 'argv-game';
  const file = (name: string) => join(d.config.serversDir ?? '', id, name);
  const json = async (name: string) => JSON.parse(await readFile(file(name), 'utf8')) as unknown;
  const post = (token: string, path: string, body: string) =>
    fetch(`${d.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
  const error = async (res: Response) => ((await res.json()) as ErrorBody).error;

  beforeAll(async () => {
    d = await startTestDaemon();
    admin = await d.admin();
    user = await d.user(id, ['editServerData', 'installServer', 'startServer']);
    const created = await d.request('PUT', `/daemon/server/${id}`, { token: admin, body: definition() });
    expect(created.status).toBe(200);
  });
  afterAll(async () => d?.close());

  it('a user sets a hostile value; install steps and the run command receive it as one argument', async () => {
    const set = await d.request('POST', `/daemon/server/${id}/data`, {
      token: user,
      body: { data: { motd: { value: HOSTILE } } },
    });
    expect(set.status).toBe(204);
    const install = await d.request('POST', `/daemon/server/${id}/install?wait=true`, { token: user });
    expect(install.status, await install.clone().text()).toBe(204);
    expect(await json('install.json')).toEqual(['a', HOSTILE, 'b']);
    // The template's own shell script: the value arrives literally, unquoted and inside its double quotes.
    expect(await readFile(file('shell.txt'), 'utf8')).toBe(`${HOSTILE}[${HOSTILE}]`);

    expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`, { token: user })).status).toBe(
      204,
    );
    const ran = await waitFor(
      async () => (existsSync(file('run.json')) ? json('run.json') : null),
      'run.json',
    );
    expect(ran).toEqual([`--motd=${HOSTILE}`, HOSTILE, '25565']);
    expect(existsSync(file('pwned'))).toBe(false);
  });

  it('refuses bad values by name and keeps the old ones', async () => {
    const cases: Array<[string, string]> = [
      ['{"data":{"port":{"value":1e20}}}', 'port'],
      ['{"data":{"port":{"value":99999999}}}', 'port'],
      ['{"data":{"port":{"value":0}}}', 'port'],
      [JSON.stringify({ data: { motd: { value: 'line\nset password x' } } }), 'motd'],
      [JSON.stringify({ data: { motd: { value: 'tab\there' } } }), 'motd'],
      [JSON.stringify({ data: { motd: { value: 'nul\u0000byte' } } }), 'motd'],
      [JSON.stringify({ data: { motd: { value: 'x'.repeat(2 * 1024 * 1024) } } }), 'motd'],
    ];
    for (const [body, field] of cases) {
      const res = await post(user, `/daemon/server/${id}/data`, body);
      expect(res.status, body.slice(0, 60)).toBe(400);
      expect(await error(res)).toMatchObject({ code: 'ErrVariableType', metadata: { field } });
    }
    const data = (await (await d.request('GET', `/daemon/server/${id}/data`, { token: user })).json()) as {
      data: Record<string, { value: unknown }>;
    };
    expect(data.data.port?.value).toBe(25565);
    expect(data.data.motd?.value).toBe(HOSTILE);
  });

  it('a user cannot set, or even see, an admin-only variable; an admin can', async () => {
    const res = await d.request('POST', `/daemon/server/${id}/data`, {
      token: user,
      body: { data: { command: { value: 'bash -c id' } } },
    });
    expect(res.status).toBe(403);
    expect(await error(res)).toMatchObject({ code: 'ErrNoPermission', metadata: { field: 'command' } });
    const seen = (await (await d.request('GET', `/daemon/server/${id}/data`, { token: user })).json()) as {
      data: Record<string, unknown>;
    };
    expect(Object.keys(seen.data).sort()).toEqual(['motd', 'port']);
    const byAdmin = await d.request('POST', `/daemon/server/${id}/data`, {
      token: admin,
      body: { data: { command: { value: './start.sh --flag' } } },
    });
    expect(byAdmin.status).toBe(204);
  });

  it('refuses a definition with a bad value or an unquotable shell script, on create and on save', async () => {
    const bad = definition();
    bad.data.port.value = 1e20;
    const created = await d.request('PUT', '/daemon/server/argv-bad', { token: admin, body: bad });
    expect(created.status).toBe(400);
    expect(await error(created)).toMatchObject({ code: 'ErrVariableType', metadata: { field: 'port' } });
    const unquotable = { ...definition(), run: { command: 'sh -c "echo `date` ${motd}"' } };
    const saved = await d.request('POST', `/daemon/server/${id}`, { token: admin, body: unquotable });
    expect(saved.status).toBe(400);
    expect((await error(saved)).code).toBe('ErrCommandSyntax');
  });
});
