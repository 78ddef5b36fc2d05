/**
 * `editUsers` cannot take over an account holding more than the editor (docs/security.md § Authorization): no
 * password, e-mail, username, permission change or deletion of an account with a panel flag, an admin flag or
 * server access the editor lacks. Administrators keep full power; allowed edits still work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp, type TestUser } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { accessToken, createClient } from '../helpers/oauth2-client';
import { grant, seedServer } from '../servers/fixtures';

type Res = Awaited<ReturnType<typeof call>>;
const code = (res: Res) => res.json<ErrorBody>().error.code;
const refusal = (res: Res) => [res.statusCode, code(res)];

describe.each(DIALECTS)('editUsers account rules on %s', (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let plain: TestUser;
  let s1: string;
  let s2: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await createUser(t, { admin: true });
    editor = await createUser(t, { viewUsers: true, editUsers: true, viewNodes: true });
    plain = await createUser(t);
    s1 = await seedServer(t);
    s2 = await seedServer(t);
    await grant(t, editor.id, s1, ['viewServerConsole', 'editServerUsers']);
  });
  afterAll(() => t?.close());

  const login = (user: { email: string }, password: string) =>
    call(t, 'POST', '/auth/login', { body: { email: user.email, password } });
  const edit = (token: string, id: string, body: object) =>
    call(t, 'POST', `/api/users/${id}`, { token, body });

  /** Every change an editor could make to `victim`'s account, each refused; the account is left as it was. */
  async function expectUntouchable(victim: TestUser) {
    for (const body of [
      { password: 'takeover-pass' },
      { email: 'mine@evil.test' },
      { username: 'renamed' },
    ]) {
      expect(refusal(await edit(editor.token, victim.id, body)), JSON.stringify(body)).toEqual([
        403,
        'ErrCannotEditUser',
      ]);
    }
    const perms = await call(t, 'PUT', `/api/users/${victim.id}/perms`, {
      token: editor.token,
      body: { viewNodes: true },
    });
    expect(refusal(perms)).toEqual([403, 'ErrCannotEditUser']);
    expect(refusal(await call(t, 'DELETE', `/api/users/${victim.id}`, { token: editor.token }))).toEqual([
      403,
      'ErrCannotEditUser',
    ]);
    const view = await call(t, 'GET', `/api/users/${victim.id}`, { token: admin.token });
    expect(view.json()).toEqual({ id: victim.id, username: victim.username, email: victim.email });
    expect((await call(t, 'GET', '/api/self', { token: victim.token })).statusCode).toBe(200);
    expect((await login(victim, victim.password)).statusCode).toBe(200);
  }

  it('ladder for POST /api/users/{id}: 401 → 403 → 400 → 404 → 403 ErrCannotEditUser → 204', async () => {
    const victim = await createUser(t, { panelSettings: true });
    const peer = await createUser(t, { viewNodes: true });
    expect(refusal(await edit('', victim.id, { username: 'x_user' }))).toEqual([401, 'ErrNotLoggedIn']);
    expect(refusal(await edit(plain.token, victim.id, { username: 'x_user' }))).toEqual([
      403,
      'ErrNoPermission',
    ]);
    expect((await edit(editor.token, victim.id, { password: 'short' })).statusCode).toBe(400);
    expect(refusal(await edit(editor.token, 'no-such-user', { username: 'x_user' }))).toEqual([
      404,
      'ErrUserNotFound',
    ]);
    expect(refusal(await edit(editor.token, victim.id, { username: 'x_user' }))).toEqual([
      403,
      'ErrCannotEditUser',
    ]);
    expect((await edit(editor.token, peer.id, { username: `peer_${peer.id.slice(0, 6)}` })).statusCode).toBe(
      204,
    );
  });

  it('finding 3: an account holding a panel flag the editor lacks cannot be taken over; an admin still can', async () => {
    const victim = await createUser(t, { panelSettings: true });
    await expectUntouchable(victim);
    expect((await edit(admin.token, victim.id, { password: 'reset-by-admin' })).statusCode).toBe(204);
    expect((await login(victim, 'reset-by-admin')).statusCode).toBe(200);
    expect((await login(victim, victim.password)).statusCode).toBe(400);
  });

  it('an administrator is never editable by a non-admin, even one holding every other flag', async () => {
    const everything = {
      viewServers: true,
      createServers: true,
      deleteServers: true,
      editServerAdmin: true,
      viewNodes: true,
      editNodes: true,
      deployNodes: true,
      viewTemplates: true,
      editTemplates: true,
      viewUsers: true,
      editUsers: true,
      panelSettings: true,
    };
    await call(t, 'PUT', `/api/users/${editor.id}/perms`, { token: admin.token, body: everything });
    try {
      await expectUntouchable(await createUser(t, { admin: true }));
    } finally {
      await call(t, 'PUT', `/api/users/${editor.id}/perms`, {
        token: admin.token,
        body: { viewUsers: true, editUsers: true, viewNodes: true },
      });
    }
  });

  it('server access counts: a row on a server the editor cannot see, or a server flag they lack there', async () => {
    const elsewhere = await createUser(t);
    await grant(t, elsewhere.id, s2, []);
    await expectUntouchable(elsewhere);
    const stronger = await createUser(t);
    await grant(t, stronger.id, s1, ['viewServerConsole', 'sftpServer']);
    await expectUntouchable(stronger);
    // Once the editor holds that flag on that server too, the account is within their reach.
    await grant(t, editor.id, s1, ['viewServerConsole', 'editServerUsers', 'sftpServer']);
    expect((await edit(editor.token, stronger.id, { password: 'now-allowed' })).statusCode).toBe(204);
    expect((await login(stronger, 'now-allowed')).statusCode).toBe(200);
  });

  it('allowed edits still work: an account holding no more than the editor', async () => {
    const peer = await createUser(t, { viewNodes: true });
    await grant(t, peer.id, s1, ['viewServerConsole']);
    const email = `moved_${peer.id.slice(0, 8)}@example.com`;
    expect((await edit(editor.token, peer.id, { email, password: 'changed-by-editor' })).statusCode).toBe(
      204,
    );
    expect((await login({ email }, 'changed-by-editor')).statusCode).toBe(200);
    expect((await call(t, 'GET', '/api/self', { token: peer.token })).statusCode).toBe(401);
    const perms = await call(t, 'PUT', `/api/users/${peer.id}/perms`, {
      token: editor.token,
      body: { viewNodes: false, viewUsers: true },
    });
    expect(perms.statusCode).toBe(204);
    expect((await call(t, 'DELETE', `/api/users/${peer.id}`, { token: editor.token })).statusCode).toBe(204);
  });

  it('an OAuth2 token cannot change its own account here; an admin token still manages other users', async () => {
    const editorToken = await accessToken(t, await createClient(t, editor.token));
    expect(refusal(await edit(editorToken, editor.id, { password: 'token-takeover' }))).toEqual([
      403,
      'ErrSessionRequired',
    ]);
    expect((await login(editor, editor.password)).statusCode).toBe(200);
    const adminToken = await accessToken(t, await createClient(t, admin.token));
    expect(refusal(await edit(adminToken, admin.id, { email: 'taken@evil.test' }))).toEqual([
      403,
      'ErrSessionRequired',
    ]);
    const managed = await createUser(t);
    expect(
      (await edit(adminToken, managed.id, { username: `managed_${managed.id.slice(0, 6)}` })).statusCode,
    ).toBe(204);
  });
});
