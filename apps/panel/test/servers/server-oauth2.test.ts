/**
 * Server-scoped OAuth2 clients (`/api/servers/{id}/oauth2`): the ladder, and their tokens acting only on that
 * server with the owner's current rights there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { grant, seedServer } from './fixtures';

type User = Awaited<ReturnType<typeof createUser>>;
const code = (res: { json<T>(): T }) => res.json<ErrorBody>().error.code;

describe.each(DIALECTS)('server OAuth2 clients on %s', (dialect) => {
  let t: TestApp;
  let owner: User;
  let admin: User;
  let stranger: User;
  let a: string;
  let b: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    owner = await createUser(t, { viewUsers: true });
    admin = await createUser(t, { admin: true });
    stranger = await createUser(t);
    a = await seedServer(t);
    b = await seedServer(t);
    await grant(t, owner.id, a, ['editServerUsers', 'viewServerConsole']);
    await grant(t, owner.id, b, ['editServerData']);
    await grant(t, stranger.id, b, ['editServerData']);
  });
  afterAll(() => t?.close());

  const create = async (token: string, server: string, name = 'bot') =>
    (
      await call(t, 'POST', `/api/servers/${server}/oauth2`, { token, body: { name, description: 'd' } })
    ).json<{
      id: string;
      secret: string;
    }>();
  const tokenFor = async (client: { id: string; secret: string }) =>
    (
      await call(t, 'POST', '/oauth2/token', {
        body: { grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret },
      })
    ).json<{ access_token: string; scope: string }>();

  it('ladder: 401 → 404 without access → 400 → create → listed for its owner and server only → delete', async () => {
    const url = `/api/servers/${a}/oauth2`;
    for (const method of ['GET', 'POST'] as const) {
      expect((await call(t, method, url, { body: method === 'POST' ? {} : undefined })).statusCode).toBe(401);
      const hidden = await call(t, method, url, {
        token: stranger.token,
        body: method === 'POST' ? {} : undefined,
      });
      expect(hidden.statusCode).toBe(404);
    }
    expect((await call(t, 'DELETE', `${url}/x`)).statusCode).toBe(401);
    expect((await call(t, 'DELETE', `${url}/x`, { token: stranger.token })).statusCode).toBe(404);
    const bad = await call(t, 'POST', url, { token: owner.token, body: { name: 5 } });
    expect([bad.statusCode, code(bad)]).toEqual([400, 'ErrFieldInvalid']);
    const created = await call(t, 'POST', url, {
      token: owner.token,
      body: { name: 'ci', description: 'x' },
    });
    expect(created.statusCode).toBe(200);
    const { id, secret } = created.json<{ id: string; secret: string }>();
    expect(secret.length).toBeGreaterThanOrEqual(43);
    expect((await call(t, 'GET', url, { token: owner.token })).json()).toEqual([
      { client_id: id, name: 'ci', description: 'x', revoked: false },
    ]);
    expect((await call(t, 'GET', url, { token: admin.token })).json()).toEqual([]);
    expect((await call(t, 'GET', `/api/servers/${b}/oauth2`, { token: owner.token })).json()).toEqual([]);
    expect((await call(t, 'GET', '/api/self/oauth2', { token: owner.token })).json()).toEqual([]);
    // Not the caller's, or bound elsewhere: 404.
    expect(code(await call(t, 'DELETE', `${url}/${id}`, { token: admin.token }))).toBe('ErrClientNotFound');
    expect(code(await call(t, 'DELETE', `/api/servers/${b}/oauth2/${id}`, { token: owner.token }))).toBe(
      'ErrClientNotFound',
    );
    expect(code(await call(t, 'DELETE', `/api/self/oauth2/${id}`, { token: owner.token }))).toBe(
      'ErrClientNotFound',
    );
    expect((await call(t, 'DELETE', `${url}/${id}`, { token: owner.token })).statusCode).toBe(204);
    expect((await call(t, 'GET', url, { token: owner.token })).json()).toEqual([]);
  });

  it("a client's token acts only on its server, with the owner's rights there", async () => {
    const client = await create(owner.token, a);
    const issued = await tokenFor(client);
    expect(issued.scope).toBe(`server:${a}`);
    const as = { token: issued.access_token };
    expect((await call(t, 'GET', `/api/servers/${a}`, as)).statusCode).toBe(200);
    expect((await call(t, 'GET', `/api/servers/${a}/user`, as)).statusCode).toBe(200);
    // The owner lacks editServerData on a; has it on b, which this token does not reach.
    expect((await call(t, 'PUT', `/api/servers/${a}/name/renamed`, as)).statusCode).toBe(403);
    expect((await call(t, 'GET', `/api/servers/${b}`, as)).statusCode).toBe(404);
    expect((await call(t, 'PUT', `/api/servers/${b}/name/renamed`, as)).statusCode).toBe(404);
    for (const url of ['/api/self', '/api/servers', '/api/users', '/api/nodes', '/api/self/oauth2']) {
      expect((await call(t, 'GET', url, as)).statusCode, url).toBe(403);
    }
    expect((await call(t, 'DELETE', `/api/servers/${a}`, as)).statusCode).toBe(403);
    expect((await call(t, 'POST', `/api/servers/${a}/oauth2`, { ...as, body: {} })).statusCode).toBe(403);
  });

  it('loses access with its owner, and when the client is deleted', async () => {
    const client = await create(owner.token, a);
    const as = { token: (await tokenFor(client)).access_token };
    await t.services.serversRepo.removeUser(owner.id, a);
    expect((await call(t, 'GET', `/api/servers/${a}`, as)).statusCode).toBe(404);
    await grant(t, owner.id, a, ['editServerUsers']);
    expect((await call(t, 'GET', `/api/servers/${a}`, as)).statusCode).toBe(200);
    await call(t, 'DELETE', `/api/servers/${a}/oauth2/${client.id}`, { token: owner.token });
    expect((await call(t, 'GET', `/api/servers/${a}`, as)).statusCode).toBe(401);
  });

  it("an admin's server client holds every flag on that server, nothing beyond it; deleting the server ends it", async () => {
    const c = await seedServer(t);
    const as = { token: (await tokenFor(await create(admin.token, c))).access_token };
    expect((await call(t, 'PUT', `/api/servers/${c}/name/by-client-${c}`, as)).statusCode).toBe(204);
    expect((await call(t, 'GET', `/api/servers/${c}/user`, as)).statusCode).toBe(200);
    expect((await call(t, 'GET', `/api/servers/${a}`, as)).statusCode).toBe(404);
    expect((await call(t, 'GET', '/api/users', as)).statusCode).toBe(403);
    expect((await call(t, 'DELETE', `/api/servers/${c}`, as)).statusCode).toBe(403);
    await t.services.serversRepo.delete(c);
    expect((await call(t, 'GET', `/api/servers/${c}`, as)).statusCode).toBe(401);
    const left = await t.db.kysely
      .selectFrom('oauth2_clients')
      .select('id')
      .where('server_id', '=', c)
      .execute();
    expect(left).toEqual([]);
  });
});
