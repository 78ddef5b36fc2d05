import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';

const code = (res: { json<T>(): T }) => res.json<ErrorBody>().error.code;
type Page = {
  users: Array<{ id: string; username: string; email: string }>;
  paging: { total: number; page: number; pageSize: number };
};

describe.each(DIALECTS)('users API on %s', (dialect) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createUser>>;
  let viewer: Awaited<ReturnType<typeof createUser>>;
  let editor: Awaited<ReturnType<typeof createUser>>;
  let plain: Awaited<ReturnType<typeof createUser>>;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await createUser(t, { admin: true });
    viewer = await createUser(t, { viewUsers: true });
    editor = await createUser(t, { viewUsers: true, editUsers: true, viewNodes: true });
    plain = await createUser(t);
  });
  afterAll(() => t?.close());

  it('ladder for GET /api/users: 401, 403, 400, then pages with search', async () => {
    expect((await call(t, 'GET', '/api/users')).statusCode).toBe(401);
    expect((await call(t, 'GET', '/api/users', { token: plain.token })).statusCode).toBe(403);
    expect(code(await call(t, 'GET', '/api/users?page=0', { token: viewer.token }))).toBe('ErrFieldTooSmall');
    expect(code(await call(t, 'GET', '/api/users?limit=1000', { token: viewer.token }))).toBe(
      'ErrFieldTooLarge',
    );
    for (let i = 0; i < 12; i += 1) {
      await call(t, 'POST', '/api/users', {
        token: admin.token,
        body: { username: `Search_${i}`, email: `s${i}@x.io`, password: 'long enough' },
      });
    }
    const first = (await call(t, 'GET', '/api/users', { token: viewer.token })).json<Page>();
    expect(first.users).toHaveLength(10);
    expect(first.paging).toMatchObject({ page: 1, pageSize: 10, total: 16 });
    const found = (
      await call(t, 'GET', '/api/users?username=*search_1*&limit=5&page=1', { token: viewer.token })
    ).json<Page>();
    expect(found.paging.total).toBe(3); // Search_1, Search_10, Search_11 (case-insensitive on every dialect)
    expect(found.users.map((u) => u.username)).toEqual(['Search_1', 'Search_10', 'Search_11']);
    const literal = (
      await call(t, 'GET', `/api/users?username=${encodeURIComponent('%_')}`, { token: viewer.token })
    ).json<Page>();
    expect(literal.paging.total).toBe(0);
  });

  it('create → 200 view, duplicate 409, validation 400; GET shows it', async () => {
    expect((await call(t, 'POST', '/api/users', { token: viewer.token, body: {} })).statusCode).toBe(403);
    const body = { username: 'carol', email: 'Carol@Example.com', password: 'long enough' };
    expect(
      code(await call(t, 'POST', '/api/users', { token: editor.token, body: { ...body, email: 'x' } })),
    ).toBe('ErrFieldNotEmail');
    const created = await call(t, 'POST', '/api/users', { token: editor.token, body });
    expect(created.statusCode).toBe(200);
    const view = created.json<{ id: string; email: string }>();
    expect(view.email).toBe('carol@example.com');
    expect(
      code(
        await call(t, 'POST', '/api/users', {
          token: editor.token,
          body: { ...body, username: 'CAROL', email: 'c2@x.io' },
        }),
      ),
    ).toBe('ErrDuplicateUser');
    expect((await call(t, 'GET', `/api/users/${view.id}`, { token: viewer.token })).json()).toEqual({
      id: view.id,
      username: 'carol',
      email: 'carol@example.com',
    });
    expect(code(await call(t, 'GET', '/api/users/nope', { token: viewer.token }))).toBe('ErrUserNotFound');
    const perms = (await call(t, 'GET', `/api/users/${view.id}/perms`, { token: viewer.token })).json<
      Record<string, unknown>
    >();
    expect(perms).toMatchObject({ username: 'carol', admin: false, viewServers: false });
  });

  it('permissions: admins grant anything; non-admins only what they hold and never touch admins', async () => {
    const target = await createUser(t);
    const put = (token: string, body: object, id = target.id) =>
      call(t, 'PUT', `/api/users/${id}/perms`, { token, body });
    expect(code(await put(editor.token, { admin: true }))).toBe('ErrCannotGrantPermission');
    expect(code(await put(editor.token, { panelSettings: true }))).toBe('ErrCannotGrantPermission');
    expect((await put(editor.token, { viewNodes: true, username: 'ignored' })).statusCode).toBe(204);
    expect(
      (await call(t, 'GET', `/api/users/${target.id}/perms`, { token: viewer.token })).json(),
    ).toMatchObject({ viewNodes: true, admin: false });
    expect(code(await put(editor.token, { viewNodes: false }, admin.id))).toBe('ErrCannotEditUser');
    expect(
      code(
        await call(t, 'POST', `/api/users/${admin.id}`, {
          token: editor.token,
          body: { password: 'takeover123' },
        }),
      ),
    ).toBe('ErrCannotEditUser');
    expect((await put(admin.token, { admin: true })).statusCode).toBe(204);
    // The scopes at the next login follow the change.
    const login = await call(t, 'POST', '/auth/login', {
      body: { email: target.email, password: target.password },
    });
    expect(login.json<{ scopes: string[] }>().scopes).toContain('servers.admin');
    expect(code(await put(admin.token, { bogus: true }))).toBe('ErrFieldUnknown');
  });

  it('update and delete: password change ends sessions; delete ends sessions and clients; no self-delete', async () => {
    const target = await createUser(t);
    const client = (
      await call(t, 'POST', '/api/self/oauth2', { token: target.token, body: { name: 'ci' } })
    ).json<{ id: string; secret: string }>();
    const update = await call(t, 'POST', `/api/users/${target.id}`, {
      token: editor.token,
      body: { username: 'renamed_user', password: 'new password' },
    });
    expect(update.statusCode).toBe(204);
    expect((await call(t, 'GET', '/api/self', { token: target.token })).statusCode).toBe(401);
    expect((await call(t, 'GET', `/api/users/${target.id}`, { token: viewer.token })).json()).toMatchObject({
      username: 'renamed_user',
    });
    expect(code(await call(t, 'DELETE', `/api/users/${editor.id}`, { token: editor.token }))).toBe(
      'ErrCannotDeleteSelf',
    );
    expect((await call(t, 'DELETE', `/api/users/${target.id}`, { token: editor.token })).statusCode).toBe(
      204,
    );
    expect(code(await call(t, 'GET', `/api/users/${target.id}`, { token: viewer.token }))).toBe(
      'ErrUserNotFound',
    );
    const token = await call(t, 'POST', '/oauth2/token', {
      body: { grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret },
    });
    expect(token.statusCode).toBe(401);
  });
});
