/**
 * The hot-path read caches (identity per token, server pages, the per-request access check: a server's node and
 * a user's grant) never serve what this process changed: a revoked session, a permission change, a new server
 * or access, a deleted server are visible on the very next request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { grant, seedServer } from './fixtures';

describe.each(DIALECTS)('hot-path caches on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('a revoked session and a withdrawn permission take effect on the next request', async () => {
    const user = await createUser(t, { viewNodes: true });
    for (let i = 0; i < 3; i++) expect((await call(t, 'GET', '/api/nodes', user)).statusCode).toBe(200);
    await t.services.permissions.setPanelPermissions(user.id, {
      ...(await t.services.permissions.panelPermissions(user.id)),
      viewNodes: false,
    });
    expect((await call(t, 'GET', '/api/nodes', user)).statusCode).toBe(403);
    expect((await call(t, 'POST', '/auth/logout', user)).statusCode).toBeLessThan(300);
    expect((await call(t, 'GET', '/api/self', user)).statusCode).toBe(401);
  });

  it('the server list shows a new server and a new grant at once', async () => {
    const user = await createUser(t);
    const total = async () =>
      (await call(t, 'GET', '/api/servers', user)).json<{ paging: { total: number } }>().paging.total;
    expect(await total()).toBe(0);
    expect(await total()).toBe(0);
    const id = await seedServer(t);
    await grant(t, user.id, id, []);
    expect(await total()).toBe(1);
    await t.services.serversRepo.removeUser(user.id, id);
    expect(await total()).toBe(0);
  });

  it('the access check of every server request sees a withdrawn flag, a removed grant and a deletion at once', async () => {
    const user = await createUser(t);
    const id = await seedServer(t);
    const activity = () => call(t, 'GET', `/api/servers/${id}/activity`, user).then((r) => r.statusCode);
    await grant(t, user.id, id, ['viewServerActivity']);
    for (let i = 0; i < 3; i++) expect(await activity()).toBe(200);
    await grant(t, user.id, id, ['viewServerConsole']);
    expect(await activity()).toBe(403);
    await grant(t, user.id, id, ['viewServerActivity']);
    expect(await activity()).toBe(200);
    await t.services.serversRepo.removeUser(user.id, id);
    expect(await activity()).toBe(404);
    await grant(t, user.id, id, ['viewServerActivity']);
    expect(await activity()).toBe(200);
    await t.db.kysely.deleteFrom('servers').where('id', '=', id).execute();
    expect(await activity()).toBe(404);
  });
});
