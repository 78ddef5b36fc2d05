/**
 * Every daemon proxy route climbs the ladder against a real daemon: 401 anonymous → 403 with access but
 * without the flag → 404 for a caller who cannot see the server → 400 bad input (where the route takes
 * input) → happy → effect seen through a second call. The rungs run in order on one server (install before
 * start, start before stop). Panel-only routes climb theirs in apps/panel/test/servers/ladders.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { call, createUser, type TestApp } from '../apps/panel/test/helpers/app';
import { DIALECTS } from '../apps/panel/test/helpers/dialects';
import { grant } from '../apps/panel/test/servers/fixtures';
import { serverPermissions } from '@hearth/contract';
import { panelWithNode, stopPanelWithNode, type RegisteredNode } from './helpers/node-fixture';

type Res = Awaited<ReturnType<typeof call>>;
interface Rung {
  method: 'GET' | 'POST';
  suffix: string;
  body?: unknown;
  /** Only callers holding a flag pass (not for `view` routes). */
  forbidden: boolean;
  bad?: unknown;
  /** The whole definition also needs the panel flag editServerAdmin (v2 `servers.edit.admin`). */
  definition?: true;
  effect?: (get: (suffix: string) => Promise<Res>, res: Res) => Promise<void>;
}

const changed = { ...fakeGameDefinition(), display: 'Changed game' };
const json = <T>(res: Res) => res.json<T>();
const rungs: Rung[] = [
  {
    method: 'GET',
    suffix: '',
    forbidden: true,
    definition: true,
    effect: async (_g, res) => expect(json<{ run: object }>(res).run).toHaveProperty('command'),
  },
  {
    method: 'POST',
    suffix: '',
    body: changed,
    forbidden: true,
    definition: true,
    bad: { ...changed, run: 'x' },
    effect: async (get) => expect(json(await get(''))).toMatchObject({ display: 'Changed game' }),
  },
  { method: 'GET', suffix: '/data', forbidden: true },
  {
    method: 'POST',
    suffix: '/data',
    body: { data: { flags: { value: '' } } },
    forbidden: true,
    bad: { data: 5 },
    effect: async (get) => expect(json(await get('/data'))).toMatchObject({ data: { flags: { value: '' } } }),
  },
  {
    method: 'GET',
    suffix: '/status',
    forbidden: false,
    effect: async (_g, res) => expect(json(res)).toMatchObject({ running: false }),
  },
  {
    method: 'POST',
    suffix: '/install?wait=true',
    forbidden: true,
    effect: async (get) =>
      expect(json<{ logs: string }>(await get('/console')).logs).toContain('Installing server'),
  },
  {
    method: 'POST',
    suffix: '/start?wait=true',
    forbidden: true,
    effect: async (get) => expect(json(await get('/status'))).toMatchObject({ running: true }),
  },
  { method: 'GET', suffix: '/console', forbidden: true },
  { method: 'POST', suffix: '/console', body: 'help', forbidden: true },
  {
    method: 'GET',
    suffix: '/stats',
    forbidden: true,
    effect: async (_g, res) => expect(json(res)).toHaveProperty('memory'),
  },
  {
    method: 'POST',
    suffix: '/stop?wait=true',
    forbidden: true,
    effect: async (get) => expect(json(await get('/status'))).toMatchObject({ running: false }),
  },
  { method: 'POST', suffix: '/kill', forbidden: true },
];

describe.each(DIALECTS)('daemon proxy ladders against a real daemon on %s', (dialect) => {
  let t: TestApp;
  let node: RegisteredNode;
  let admin: string;
  let holder: string;
  let definitionEditor: string;
  let viewOnly: string;
  let stranger: string;
  let base: string;

  beforeAll(async () => {
    ({ t, admin, node } = await panelWithNode(dialect, 'ladder-node'));
    const creator = await createUser(t, { createServers: true });
    // The create ladder's happy rung: a non-admin creator (from a stored template, docs/api.md § Servers), and
    // the server it made is theirs.
    const saved = await call(t, 'PUT', '/api/templates/fake-game', {
      token: admin,
      body: fakeGameDefinition(),
    });
    expect(saved.statusCode).toBe(200);
    const body = {
      template: 'fake-game',
      name: 'ladder',
      node: node.id,
      users: [],
      environment: { type: 'standard' },
    };
    const created = await call(t, 'POST', '/api/servers', { token: creator.token, body });
    expect(created.statusCode).toBe(200);
    const id = created.json<{ id: string }>().id;
    expect((await call(t, 'GET', `/api/servers/${id}`, { token: creator.token })).statusCode).toBe(200);
    base = `/proxy/daemon/server/${id}`;
    const h = await createUser(t);
    const v = await createUser(t);
    await grant(t, h.id, id, [...serverPermissions]);
    await grant(t, v.id, id, []);
    holder = h.token;
    const d = await createUser(t, { editServerAdmin: true });
    await grant(t, d.id, id, []);
    definitionEditor = d.token;
    viewOnly = v.token;
    // Holds the panel flag too, so the 404 (not the flag's 403) is what hides the server from them.
    stranger = (await createUser(t, { editServerAdmin: true })).token;
  });
  afterAll(() => stopPanelWithNode(t, node));

  const hit = (token: string | undefined, rung: Rung, body = rung.body) =>
    call(t, rung.method, `${base}${rung.suffix}`, {
      token,
      ...(body === undefined
        ? {}
        : typeof body === 'string'
          ? { body, headers: { 'content-type': 'text/plain' } }
          : { body }),
    });
  const get = (suffix: string) =>
    call(t, 'GET', `${base}${suffix}`, { token: suffix ? holder : definitionEditor });

  it.each(rungs.map((r) => [`${r.method} ${r.suffix || '/'}`, r] as const))('%s', async (_n, rung) => {
    expect((await hit(undefined, rung)).statusCode, '401').toBe(401);
    if (rung.forbidden) expect((await hit(viewOnly, rung)).statusCode, '403').toBe(403);
    expect((await hit(stranger, rung)).statusCode, '404').toBe(404);
    const happy = rung.definition ? definitionEditor : holder;
    // Every server flag is not enough for the whole definition.
    if (rung.definition) expect((await hit(holder, rung)).statusCode, '403 (flags)').toBe(403);
    if (rung.bad !== undefined) expect((await hit(happy, rung, rung.bad)).statusCode, '400').toBe(400);
    const res = await hit(happy, rung);
    expect(res.statusCode, `happy: ${res.body}`).toBeLessThan(300);
    await rung.effect?.(get, res);
  });

  it('POST /reload: node-admin only (403 for a holder of every server flag), then reloaded', async () => {
    const rung: Rung = { method: 'POST', suffix: '/reload', forbidden: true };
    expect((await hit(undefined, rung)).statusCode).toBe(401);
    expect((await hit(holder, rung)).statusCode).toBe(403);
    expect((await hit(stranger, rung)).statusCode).toBe(403);
    expect((await hit(admin, rung)).statusCode).toBeLessThan(300);
    expect((await get('/status')).statusCode).toBe(200);
  });
});
