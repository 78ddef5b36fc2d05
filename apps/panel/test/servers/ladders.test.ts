/**
 * Every panel-only server and node route climbs the same ladder: 401 anonymous → 403 without the flag →
 * 404 on a server the caller cannot see (or an unknown node) → 400 bad input → happy → effect seen through
 * a second call. Routes that need a live daemon climb theirs in e2e/server-ladders.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverPermissions, type ErrorBody } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { grant, seedServer } from './fixtures';

type User = Awaited<ReturnType<typeof createUser>>;
type Res = Awaited<ReturnType<typeof call>>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Ctx {
  t: TestApp;
  id: string;
  as: (token: string, method: Method, url: string, body?: unknown) => Promise<Res>;
  holder: User;
  target: User;
}
interface Rung {
  name: string;
  method: Method;
  /** `id` = the route's subject (a fresh server, or a fresh node for node routes). */
  url: (id: string) => string;
  body?: unknown;
  /** Whether a caller who sees the subject but lacks the flag gets 403 (not for view-only routes). */
  forbidden?: boolean;
  bad?: { url?: (id: string) => string; body?: unknown; code: string };
  happy: number;
  effect: (ctx: Ctx, res: Res) => Promise<void>;
}

const code = (res: Res) => res.json<ErrorBody>().error.code;
const nodeBody = (name: string) => ({
  name,
  publicHost: 'n.example.com',
  publicPort: 8080,
  privateHost: '10.0.0.1',
  privatePort: 8080,
  sftpPort: 5657,
});

const serverRungs: Rung[] = [
  {
    name: 'get detail',
    method: 'GET',
    url: (id) => `/api/servers/${id}?perms`,
    happy: 200,
    effect: async ({ id }, res) => {
      expect(res.json()).toMatchObject({ server: { id }, permissions: { editServerUsers: true } });
    },
  },
  {
    name: 'rename',
    method: 'PUT',
    url: (id) => `/api/servers/${id}/name/renamed-${id}`,
    forbidden: true,
    bad: { url: (id) => `/api/servers/${id}/name/bad$name`, code: 'ErrFieldHasURICharacters' },
    happy: 204,
    effect: async ({ as, holder, id }) => {
      const got = await as(holder.token, 'GET', `/api/servers/${id}`);
      expect(got.json()).toMatchObject({ server: { name: `renamed-${id}` } });
    },
  },
  {
    name: 'list users',
    method: 'GET',
    url: (id) => `/api/servers/${id}/user`,
    forbidden: true,
    happy: 200,
    effect: async ({ holder }, res) => {
      expect(res.json<Array<{ email: string }>>().map((u) => u.email)).toContain(holder.email);
    },
  },
  {
    name: 'set a user',
    method: 'PUT',
    url: (id) => `/api/servers/${id}/user/someone@example.com`,
    body: { viewServerStats: true },
    forbidden: true,
    bad: { body: { notAFlag: true }, code: 'ErrFieldUnknown' },
    // An e-mail without an account: the answer carries the invitation and its link (docs/security.md).
    happy: 200,
    effect: async ({ as, holder, id }) => {
      const users = (await as(holder.token, 'GET', `/api/servers/${id}/user`)).json<Array<object>>();
      expect(users).toContainEqual(
        expect.objectContaining({ email: 'someone@example.com', viewServerStats: true, stopServer: false }),
      );
    },
  },
  {
    name: 'remove a user',
    method: 'DELETE',
    url: (id) => `/api/servers/${id}/user/target@example.com`,
    forbidden: true,
    bad: { url: (id) => `/api/servers/${id}/user/not-an-email`, code: 'ErrFieldNotEmail' },
    happy: 204,
    effect: async ({ as, holder, id }) => {
      const users = (await as(holder.token, 'GET', `/api/servers/${id}/user`)).json<
        Array<{ email: string }>
      >();
      expect(users.map((u) => u.email)).not.toContain('target@example.com');
    },
  },
  {
    name: 'delete (node unreachable: forgotten with a warning)',
    method: 'DELETE',
    url: (id) => `/api/servers/${id}`,
    forbidden: true,
    happy: 200,
    effect: async ({ as, holder, id }, res) => {
      expect(res.json<{ warning: string }>().warning).toMatch(/files stay on the node/);
      expect((await as(holder.token, 'GET', `/api/servers/${id}`)).statusCode).toBe(404);
    },
  },
];

const nodeRungs: Rung[] = [
  {
    name: 'get node',
    method: 'GET',
    url: (id) => `/api/nodes/${id}`,
    forbidden: true,
    happy: 200,
    effect: async ({ id }, res) => expect(res.json()).toMatchObject({ id }),
  },
  {
    name: 'update node',
    method: 'PUT',
    url: (id) => `/api/nodes/${id}`,
    body: { publicPort: 9100 },
    forbidden: true,
    bad: { body: { publicPort: 70000 }, code: 'ErrFieldNotBetween' },
    happy: 204,
    effect: async ({ as, holder, id }) => {
      expect((await as(holder.token, 'GET', `/api/nodes/${id}`)).json()).toMatchObject({ publicPort: 9100 });
    },
  },
  {
    name: 'delete node',
    method: 'DELETE',
    url: (id) => `/api/nodes/${id}`,
    forbidden: true,
    happy: 204,
    effect: async ({ as, holder, id }) => {
      expect((await as(holder.token, 'GET', `/api/nodes/${id}`)).statusCode).toBe(404);
    },
  },
  {
    name: 'deployment',
    method: 'GET',
    url: (id) => `/api/nodes/${id}/deployment`,
    forbidden: true,
    happy: 200,
    effect: async ({ id }, res) => expect(res.json()).toMatchObject({ config: { nodeId: id } }),
  },
  {
    name: 'rotate the node credential',
    method: 'POST',
    url: (id) => `/api/nodes/${id}/deployment/rotate`,
    forbidden: true,
    happy: 200,
    effect: async ({ as, holder, id }, res) => {
      const again = await as(holder.token, 'POST', `/api/nodes/${id}/deployment/rotate`);
      expect(again.json<{ clientSecret: string }>().clientSecret).not.toBe(
        res.json<{ clientSecret: string }>().clientSecret,
      );
    },
  },
  {
    name: 'features of an unreachable node',
    method: 'GET',
    url: (id) => `/api/nodes/${id}/features`,
    forbidden: true,
    happy: 502,
    effect: async (_ctx, res) => expect(code(res)).toBe('ErrNodeOffline'),
  },
];

describe.each(DIALECTS)('server and node route ladders on %s', (dialect) => {
  let t: TestApp;
  let holder: User;
  let viewer: User;
  let stranger: User;
  let target: User;
  let n = 0;

  beforeAll(async () => {
    t = await buildTestApp(dialect, {}, { linkTimeouts: { connectMs: 300, responseMs: 500 } });
    // Panel flags for the node routes and server deletion; server flags come per rung.
    const nodeFlags = { viewNodes: true, editNodes: true, deployNodes: true, deleteServers: true };
    holder = await createUser(t, nodeFlags);
    stranger = await createUser(t, nodeFlags);
    viewer = await createUser(t);
    target = await createUser(t);
    await t.db.kysely
      .updateTable('users')
      .set({ email: 'target@example.com' })
      .where('id', '=', target.id)
      .execute();
    await grant(t, stranger.id, await seedServer(t), [...serverPermissions]);
  });
  afterAll(() => t?.close());

  const as = (token: string | undefined, method: Method, url: string, body?: unknown) =>
    call(t, method, url, { token, body: method === 'GET' || method === 'DELETE' ? undefined : (body ?? {}) });

  async function climb(rung: Rung, id: string, hiddenId: string, deniedBy: User) {
    const url = rung.url(id);
    expect((await as(undefined, rung.method, url, rung.body)).statusCode, '401').toBe(401);
    if (rung.forbidden)
      expect((await as(deniedBy.token, rung.method, url, rung.body)).statusCode, '403').toBe(403);
    const hidden = await as(holder.token, rung.method, rung.url(hiddenId), rung.body);
    expect(hidden.statusCode, '404').toBe(404);
    if (rung.bad) {
      const bad = await as(
        holder.token,
        rung.method,
        (rung.bad.url ?? rung.url)(id),
        rung.bad.body ?? rung.body,
      );
      expect([bad.statusCode, code(bad)]).toEqual([400, rung.bad.code]);
    }
    const res = await as(holder.token, rung.method, url, rung.body);
    expect(res.statusCode, `happy: ${res.body}`).toBe(rung.happy);
    await rung.effect({ t, id, as: (tok, m, u, b) => as(tok, m, u, b), holder, target }, res);
  }

  it.each(serverRungs.map((r) => [r.name, r] as const))('server: %s', async (_name, rung) => {
    const id = await seedServer(t, `ladder-${++n}`);
    await grant(t, holder.id, id, [...serverPermissions]);
    await grant(t, viewer.id, id, ['viewServerConsole']);
    await grant(t, target.id, id, ['viewServerStats']);
    // The stranger holds every flag, but on another server: this one is hidden from them (404).
    const strangers = await seedServer(t, `hidden-${n}`);
    await climb(rung, id, strangers, viewer);
  });

  it.each(nodeRungs.map((r) => [r.name, r] as const))('node: %s', async (_name, rung) => {
    const res = await call(t, 'POST', '/api/nodes', {
      token: holder.token,
      body: nodeBody(`ladder-node-${++n}`),
    });
    const id = res.json<{ id: string }>().id;
    // Nothing listens there: the node is unreachable at once (no connect timeout to wait for).
    await t.services.nodesRepo.update(id, { private_host: '127.0.0.1', private_port: 1 });
    await climb(rung, id, 'no-such-node', viewer);
  });

  it('list: 401 → 400 → only the servers the caller can see, paged', async () => {
    expect((await as(undefined, 'GET', '/api/servers')).statusCode).toBe(401);
    const bad = await as(holder.token, 'GET', '/api/servers?limit=1000');
    expect([bad.statusCode, code(bad)]).toEqual([400, 'ErrFieldTooLarge']);
    const mine = await seedServer(t, `listed-${++n}`);
    await grant(t, viewer.id, mine, ['viewServerConsole']);
    const page = await as(viewer.token, 'GET', '/api/servers?limit=100');
    const ids = page.json<{ servers: Array<{ id: string }> }>().servers.map((s) => s.id);
    expect(ids).toContain(mine);
    const strangers = (await as(stranger.token, 'GET', '/api/servers?limit=100')).json<{
      servers: Array<{ id: string }>;
    }>();
    expect(strangers.servers.map((s) => s.id)).not.toContain(mine);
    const one = await as(viewer.token, 'GET', '/api/servers?limit=1&page=1');
    expect(one.json<{ servers: unknown[]; paging: { total: number } }>()).toMatchObject({
      paging: { pageSize: 1, total: ids.length },
    });
  });

  it('create (before the daemon): 401 → 403 → 400 bad name / unknown node, nothing left behind', async () => {
    // Non-admins create from a stored template (create-rules.test.ts has the rest of that rule).
    await t.services.templates.save('ladder', {
      run: { command: 'true' },
      environment: { type: 'standard' },
    });
    const body = {
      name: 'ok',
      node: 'local',
      users: [],
      environment: { type: 'standard' },
      template: 'ladder',
    };
    expect((await as(undefined, 'POST', '/api/servers', body)).statusCode).toBe(401);
    expect((await as(viewer.token, 'POST', '/api/servers', body)).statusCode).toBe(403);
    const creator = await createUser(t, { createServers: true });
    const badName = await as(creator.token, 'POST', '/api/servers', { ...body, name: 'bad/name' });
    expect([badName.statusCode, code(badName)]).toEqual([400, 'ErrFieldHasURICharacters']);
    const noNode = await as(creator.token, 'POST', '/api/servers', { ...body, node: 'nope' });
    expect([noNode.statusCode, code(noNode)]).toEqual([400, 'ErrNodeInvalid']);
    const listed = (await as(creator.token, 'GET', '/api/servers')).json<{ paging: { total: number } }>();
    expect(listed.paging.total).toBe(0);
  });
});
