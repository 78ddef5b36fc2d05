/**
 * OAuth2 access tokens act on the account's resources but never manage the account itself (docs/security.md
 * § Sessions and tokens): password, e-mail, username, two-factor and OAuth2 clients need a login session
 * (403 ErrSessionRequired). A password change revokes every OAuth2 client secret of the account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp, type TestUser } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { accessToken, createClient, requestToken } from '../helpers/oauth2-client';
import { totpCode } from '../helpers/otp';
import { grant, seedServer } from '../servers/fixtures';

type Res = Awaited<ReturnType<typeof call>>;
const code = (res: Res) => res.json<ErrorBody>().error.code;
const refusal = (res: Res) => [res.statusCode, code(res)];
type Listed = { client_id: string; revoked: boolean };

describe.each(DIALECTS)('OAuth2 tokens and the account on %s', (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let server: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await createUser(t, { admin: true });
    server = await seedServer(t);
  });
  afterAll(() => t?.close());

  const login = (email: string, password: string) =>
    call(t, 'POST', '/auth/login', { body: { email, password } });
  const userRow = (id: string) =>
    t.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const clientIds = async (userId: string) =>
    (await t.db.kysely.selectFrom('oauth2_clients').select('id').where('user_id', '=', userId).execute())
      .map((r) => r.id)
      .sort();

  it('finding 6: an account token cannot change the password, e-mail, username, two-factor or clients', async () => {
    const u = await createUser(t, { viewServers: true });
    const client = await createClient(t, u.token);
    const token = await accessToken(t, client);
    // What the token may do, it still does.
    expect((await call(t, 'GET', '/api/self', { token })).statusCode).toBe(200);
    expect((await call(t, 'GET', '/api/self/oauth2', { token })).statusCode).toBe(200);
    const before = await userRow(u.id);
    const attempts: Array<[string, string, unknown]> = [
      ['PUT', '/api/self', { password: u.password, newPassword: 'token-chosen-pw' }],
      ['PUT', '/api/self', { password: u.password, email: 'token@evil.test' }],
      ['PUT', '/api/self', { password: u.password, username: 'token_named' }],
      ['POST', '/api/self/otp', undefined],
      ['PUT', '/api/self/otp', { token: '123456' }],
      ['DELETE', '/api/self/otp/123456', undefined],
      ['POST', '/api/self/oauth2', { name: 'minted by a token' }],
      ['DELETE', `/api/self/oauth2/${client.id}`, undefined],
    ];
    for (const [method, url, body] of attempts) {
      expect(refusal(await call(t, method, url, { token, body })), `${method} ${url}`).toEqual([
        403,
        'ErrSessionRequired',
      ]);
    }
    const after = await userRow(u.id);
    expect(after).toEqual(before); // no enrolment started, nothing renamed, same password hash
    expect(after.otp_pending_secret).toBeNull();
    expect(await clientIds(u.id)).toEqual([client.id]);
    expect((await login(u.email, u.password)).statusCode).toBe(200);
  });

  it('a server client token cannot create or delete clients of its server', async () => {
    const u = await createUser(t);
    await grant(t, u.id, server, ['viewServerConsole']);
    const client = await createClient(t, u.token, server);
    const token = await accessToken(t, client);
    expect((await call(t, 'GET', `/api/servers/${server}`, { token })).statusCode).toBe(200);
    const create = await call(t, 'POST', `/api/servers/${server}/oauth2`, { token, body: { name: 'x' } });
    expect(refusal(create)).toEqual([403, 'ErrSessionRequired']);
    const del = await call(t, 'DELETE', `/api/servers/${server}/oauth2/${client.id}`, { token });
    expect(refusal(del)).toEqual([403, 'ErrSessionRequired']);
    expect(await clientIds(u.id)).toEqual([client.id]);
  });

  it('ladder for a session-only route: 401 → 403 for a token → 400 → the session does it', async () => {
    const u = await createUser(t);
    const token = await accessToken(t, await createClient(t, u.token));
    expect(refusal(await call(t, 'POST', '/api/self/oauth2', { body: { name: 'x' } }))).toEqual([
      401,
      'ErrNotLoggedIn',
    ]);
    expect(refusal(await call(t, 'POST', '/api/self/oauth2', { token, body: { name: 'x' } }))).toEqual([
      403,
      'ErrSessionRequired',
    ]);
    expect(refusal(await call(t, 'POST', '/api/self/oauth2', { token: u.token, body: { name: 7 } }))).toEqual(
      [400, 'ErrFieldInvalid'],
    );
    expect(
      (await call(t, 'POST', '/api/self/oauth2', { token: u.token, body: { name: 'x' } })).statusCode,
    ).toBe(200);
    // The session enrols and confirms two-factor, which the token could not.
    const enrol = (await call(t, 'POST', '/api/self/otp', { token: u.token })).json<{ secret: string }>();
    const confirm = await call(t, 'PUT', '/api/self/otp', {
      token: u.token,
      body: { token: totpCode(enrol.secret) },
    });
    expect(confirm.statusCode).toBe(204);
    expect((await userRow(u.id)).otp_enabled).toBe(1);
  });

  it("a password change on /api/self revokes the account's client secrets, account and server clients alike", async () => {
    const u = await createUser(t);
    await grant(t, u.id, server, ['viewServerConsole']);
    const account = await createClient(t, u.token);
    const onServer = await createClient(t, u.token, server);
    const tokens = [await accessToken(t, account), await accessToken(t, onServer)];
    const other = await createUser(t);
    const untouched = await createClient(t, other.token);
    const change = await call(t, 'PUT', '/api/self', {
      token: u.token,
      body: { password: u.password, newPassword: 'a brand new password' },
    });
    expect(change.statusCode).toBe(204);
    for (const token of tokens) {
      expect((await call(t, 'GET', '/api/self', { token })).statusCode).toBe(401);
    }
    for (const client of [account, onServer]) {
      const res = await requestToken(t, client);
      expect([res.statusCode, res.json<{ error: string }>().error]).toEqual([401, 'invalid_client']);
    }
    expect((await call(t, 'GET', '/api/self', { token: u.token })).statusCode).toBe(200); // this session stays
    const listed = (await call(t, 'GET', '/api/self/oauth2', { token: u.token })).json<Listed[]>();
    expect(listed).toEqual([expect.objectContaining({ client_id: account.id, revoked: true })]);
    const onServerListed = (await call(t, 'GET', `/api/servers/${server}/oauth2`, { token: u.token })).json<
      Listed[]
    >();
    expect(onServerListed).toEqual([expect.objectContaining({ client_id: onServer.id, revoked: true })]);
    // Another account's client, and a client created after the change, mint tokens.
    expect((await requestToken(t, untouched)).statusCode).toBe(200);
    const fresh = await createClient(t, u.token);
    expect((await call(t, 'GET', '/api/self', { token: await accessToken(t, fresh) })).statusCode).toBe(200);
    // A revoked client can still be deleted by its owner.
    expect((await call(t, 'DELETE', `/api/self/oauth2/${account.id}`, { token: u.token })).statusCode).toBe(
      204,
    );
  });

  it('an admin setting a password revokes the secrets too; other changes revoke nothing', async () => {
    const u = await createUser(t);
    const client = await createClient(t, u.token);
    const renamed = await call(t, 'POST', `/api/users/${u.id}`, {
      token: admin.token,
      body: { username: `renamed_${u.id.slice(0, 6)}` },
    });
    expect(renamed.statusCode).toBe(204);
    const token = await accessToken(t, client);
    expect((await call(t, 'GET', '/api/self', { token })).statusCode).toBe(200);
    const reset = await call(t, 'POST', `/api/users/${u.id}`, {
      token: admin.token,
      body: { password: 'set by the admin' },
    });
    expect(reset.statusCode).toBe(204);
    expect((await call(t, 'GET', '/api/self', { token })).statusCode).toBe(401);
    expect((await requestToken(t, client)).statusCode).toBe(401);
    expect((await login(u.email, 'set by the admin')).statusCode).toBe(200);
  });

  it('a token of a revoked client identifies nobody, even if it outlived the revocation', async () => {
    const u = await createUser(t);
    const client = await createClient(t, u.token);
    const token = await accessToken(t, client);
    // As if the token had been issued while the password change committed: the row is revoked, the token left.
    await t.db.kysely
      .updateTable('oauth2_clients')
      .set({ revoked_at: Date.now() })
      .where('id', '=', client.id)
      .execute();
    expect(refusal(await call(t, 'GET', '/api/self', { token }))).toEqual([401, 'ErrSessionTimedOut']);
  });
});
