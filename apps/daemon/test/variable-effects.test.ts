/**
 * Variables over the wire (docs/daemon.md § When a changed variable takes effect): GET …/data says, per variable,
 * whether a change needs a reinstall (used by the install steps) or a restart (used by the run section or the
 * environment), read from the definition; a value outside the variable's range is refused with 400
 * ErrVariableType naming the variable, and nothing is saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

const definition = {
  ...fakeGameDefinition(),
  data: {
    port: { type: 'integer', value: 30000, min: 1, max: 65535, display: 'Port', userEdit: true },
    flags: { type: 'string', value: '', display: 'Extra flags', userEdit: true },
    both: { type: 'string', value: 'x', display: 'Both', userEdit: true },
    unused: { type: 'string', value: '', display: 'Unused', userEdit: true },
    secret: { type: 'string', value: 's', display: 'Admin only', userEdit: false },
  },
  install: [
    { type: 'writefile', target: 'server.cfg', text: 'port=${port}\nname=${both}\nsecret=${secret}\n' },
  ],
};
definition.run = { ...definition.run, command: `${definition.run.command} --name=\${both}` };

describe('variable effects and ranges', () => {
  let d: TestDaemon;

  beforeAll(async () => {
    d = await startTestDaemon();
    const admin = await d.admin();
    expect((await d.request('PUT', '/daemon/server/vars1', { token: admin, body: definition })).status).toBe(
      200,
    );
  });
  afterAll(async () => d?.close());

  it('names the effect of each variable the caller sees, from where the definition uses it', async () => {
    const user = await d.user('vars1', ['editServerData']);
    const res = await d.request('GET', '/daemon/server/vars1/data', { token: user });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Record<string, unknown>; effects: Record<string, string[]> };
    expect(body.effects).toEqual({
      port: ['reinstall'],
      flags: ['restart'],
      both: ['reinstall', 'restart'],
      unused: [],
    });
    const admin = await d.admin();
    const all = (await (await d.request('GET', '/daemon/server/vars1/data', { token: admin })).json()) as {
      effects: Record<string, string[]>;
    };
    expect(all.effects.secret).toEqual(['reinstall']);
  });

  it('refuses a port outside its range with ErrVariableType naming it, and keeps the old value', async () => {
    const user = await d.user('vars1', ['editServerData']);
    const res = await d.request('POST', '/daemon/server/vars1/data', {
      token: user,
      body: { data: { port: { value: 99999999 } } },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; metadata: { field: string } } };
    expect(body.error).toMatchObject({ code: 'ErrVariableType', metadata: { field: 'port' } });
    const after = (await (await d.request('GET', '/daemon/server/vars1/data', { token: user })).json()) as {
      data: { port: { value: number } };
    };
    expect(after.data.port.value).toBe(30000);
  });
});
