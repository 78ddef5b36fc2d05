/**
 * Who may create what (docs/api.md § Servers, docs/security.md): a user with only createServers names a stored
 * template and sets values of its `userEdit` variables; raw commands and other definition fields are refused
 * with 403 ErrNoPermission naming the field, bad values with ErrVariableType, and nothing is left behind. All
 * of these answer before the node is contacted (the node's port has no daemon: a request that reached it
 * would fail with a node error instead). The happy paths against a real daemon: e2e/servers-create.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp, type TestUser } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';

type Res = Awaited<ReturnType<typeof call>>;
const error = (res: Res) => res.json<ErrorBody>().error;

/** A stored template with a user-editable text and port, and an admin-only command. */
export const guardedTemplate = {
  display: 'Guarded',
  type: 'guarded',
  data: {
    motd: { type: 'string', value: 'hello', userEdit: true },
    port: { type: 'integer', value: 25565, min: 1, max: 65535, userEdit: true },
    command: { type: 'string', value: './start.sh', userEdit: false },
  },
  install: [{ type: 'command', commands: ['echo installing'] }],
  run: { command: '${command} --motd ${motd}' },
  environment: { type: 'tty' },
  supportedEnvironments: [{ type: 'tty' }, { type: 'standard' }],
};

describe.each(DIALECTS)('creating servers: raw commands are an administrator’s power, on %s', (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let creator: TestUser;
  let base: { name: string; node: string; users: string[]; environment: { type: string } };
  let fromTemplate: typeof base & { template: string };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await createUser(t, { admin: true });
    creator = await createUser(t, { createServers: true });
    const saved = await call(t, 'PUT', '/api/templates/guarded', {
      token: admin.token,
      body: guardedTemplate,
    });
    expect(saved.statusCode).toBe(200);
    // A node nobody listens for (port 1): a request the rules let through fails there, creating nothing.
    const nowhere = { name: 'nowhere', publicHost: '127.0.0.1', publicPort: 1, sftpPort: 2 };
    const node = await call(t, 'POST', '/api/nodes', {
      token: admin.token,
      body: { ...nowhere, privateHost: '127.0.0.1', privatePort: 1 },
    });
    expect(node.statusCode).toBe(200);
    const nodeId = node.json<{ id: string }>().id;
    base = { name: 'mine', node: nodeId, users: [], environment: { type: 'standard' } };
    fromTemplate = { ...base, template: 'guarded' };
  });
  afterAll(() => t?.close());

  const create = (body: unknown, token = creator.token) => call(t, 'POST', '/api/servers', { token, body });
  /** Raw JSON, so numbers such as 1e20 reach the panel as written. */
  const createRaw = (json: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/servers',
      headers: { authorization: `Bearer ${creator.token}`, 'content-type': 'application/json' },
      payload: json,
    });
  const rows = async () =>
    (await t.db.kysely.selectFrom('servers').select('id').execute()).length +
    (await t.db.kysely.selectFrom('permissions').select('user_id').where('server_id', '!=', '').execute())
      .length;

  it('a whole definition with install and run commands: 403 naming the field, no row', async () => {
    const attack = {
      ...base,
      type: 'x',
      install: [{ type: 'command', commands: ['bash -c "id > /tmp/owned"'] }],
      run: { command: 'id' },
    };
    for (const [body, field] of [
      [attack, 'type'],
      [{ ...base, run: { command: 'id' } }, 'run'],
      [{ ...base, install: [{ type: 'command', commands: ['id'] }] }, 'install'],
      [{ ...base, run: { command: '', pre: [{ type: 'command', commands: ['id'] }] } }, 'run'],
      [{ ...base, uninstall: [] }, 'uninstall'],
      [
        { ...base, environment: { type: 'docker', image: 'evil', bindings: { '/': '/host' } } },
        'environment.image',
      ],
    ] as const) {
      const res = await create(body);
      expect(res.statusCode, field).toBe(403);
      expect(error(res)).toMatchObject({ code: 'ErrNoPermission', metadata: { field } });
    }
    expect(await rows()).toBe(0);
  });

  it('without a template and without definition fields: 400 ErrFieldRequired template', async () => {
    const res = await create(base);
    expect([res.statusCode, error(res)]).toEqual([
      400,
      expect.objectContaining({ code: 'ErrFieldRequired', metadata: { field: 'template' } }),
    ]);
  });

  it('from a template, definition fields beside it are refused too', async () => {
    for (const [body, field] of [
      [{ ...fromTemplate, run: { command: 'id' } }, 'run'],
      [{ ...fromTemplate, install: [] }, 'install'],
      [{ ...fromTemplate, type: 'minecraft-java' }, 'type'],
      [
        { ...fromTemplate, environment: { type: 'standard', bindings: { '/etc': '/x' } } },
        'environment.bindings',
      ],
    ] as const) {
      const res = await create(body);
      expect(res.statusCode, field).toBe(403);
      expect(error(res)).toMatchObject({ code: 'ErrNoPermission', metadata: { field } });
    }
    expect(await rows()).toBe(0);
  });

  it('an admin-only variable: 403 naming it (not silently ignored)', async () => {
    const res = await create({ ...fromTemplate, data: { command: { value: 'bash -c id' } } });
    expect(res.statusCode).toBe(403);
    expect(error(res)).toMatchObject({ code: 'ErrNoPermission', metadata: { field: 'data.command' } });
    expect(await rows()).toBe(0);
  });

  it('values are checked by type and bounds, naming the variable', async () => {
    const bad: Array<[string, string]> = [
      ['{"port":{"value":1e20}}', 'port'],
      ['{"port":{"value":99999999}}', 'port'],
      ['{"port":{"value":"8080; id"}}', 'port'],
      [JSON.stringify({ motd: { value: 'a\nop me' } }), 'motd'],
      [JSON.stringify({ motd: { value: 'tab\t' } }), 'motd'],
      [JSON.stringify({ motd: { value: 'x'.repeat(4097) } }), 'motd'],
    ];
    for (const [data, field] of bad) {
      const res = await createRaw(
        `{"name":"v","node":"${base.node}","template":"guarded","environment":{"type":"tty"},"data":${data}}`,
      );
      expect(res.statusCode, data.slice(0, 40)).toBe(400);
      expect(error(res)).toMatchObject({ code: 'ErrVariableType', metadata: { field } });
    }
    const shapes: Array<[unknown, string, string]> = [
      [{ nope: { value: 1 } }, 'ErrFieldUnknown', 'data.nope'],
      [{ port: 25565 }, 'ErrFieldInvalid', 'data.port'],
      [{ port: { value: 25565, userEdit: true } }, 'ErrFieldInvalid', 'data.port'],
    ];
    for (const [data, code, field] of shapes) {
      const res = await create({ ...fromTemplate, data });
      expect([res.statusCode, error(res).code, error(res).metadata?.field]).toEqual([400, code, field]);
    }
    expect(await rows()).toBe(0);
  });

  it("the environment is one of the template's, by type; an unknown template is 404", async () => {
    const env = await create({ ...fromTemplate, environment: { type: 'docker' } });
    expect([env.statusCode, error(env)]).toEqual([
      400,
      expect.objectContaining({
        code: 'ErrFieldInvalidOption',
        metadata: { field: 'environment.type', options: ['tty', 'standard'] },
      }),
    ]);
    const unknown = await create({ ...fromTemplate, template: 'nope' });
    expect([unknown.statusCode, error(unknown).code]).toEqual([404, 'ErrNoTemplate']);
    expect(await rows()).toBe(0);
  });

  it('an administrator passes these rules with a whole definition or an admin-only value (then meets the node)', async () => {
    // Getting as far as the node (which does not answer) proves the rules let it through.
    const whole = await create(
      { ...base, ...guardedTemplate, environment: { type: 'standard' } },
      admin.token,
    );
    const locked = await create({ ...fromTemplate, data: { command: { value: './run' } } }, admin.token);
    for (const res of [whole, locked]) {
      expect(['ErrNodeOffline', 'ErrNodeTimeout']).toContain(error(res).code);
    }
    const badValue = await create(
      { ...base, ...guardedTemplate, data: { port: { type: 'integer', value: 1e20 } } },
      admin.token,
    );
    expect([badValue.statusCode, error(badValue).code]).toEqual([400, 'ErrVariableType']);
    const extra = await create({ ...fromTemplate, run: { command: 'id' } }, admin.token);
    expect([extra.statusCode, error(extra)]).toEqual([
      400,
      expect.objectContaining({ code: 'ErrFieldUnknown', metadata: { field: 'run' } }),
    ]);
    expect(await rows()).toBe(0);
  });
});
