import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';

const code = (res: { json<T>(): T }) => res.json<ErrorBody>().error.code;
type Token = { access_token: string; token_type: string; expires_in: number; scope: string };

describe.each(DIALECTS)('OAuth2 clients on %s', (dialect) => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let other: Awaited<ReturnType<typeof createUser>>;
  let admin: Awaited<ReturnType<typeof createUser>>;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    owner = await createUser(t, { viewUsers: true });
    other = await createUser(t);
    admin = await createUser(t, { admin: true });
  });
  afterAll(() => t?.close());

  const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams(fields).toString(),
    });

  it('create shows the secret once; the list never does; others cannot delete it', async () => {
    expect((await call(t, 'GET', '/api/self/oauth2')).statusCode).toBe(401);
    expect(code(await call(t, 'POST', '/api/self/oauth2', { token: owner.token, body: { name: 1 } }))).toBe(
      'ErrFieldInvalid',
    );
    const created = await call(t, 'POST', '/api/self/oauth2', {
      token: owner.token,
      body: { name: 'ci', description: 'bot' },
    });
    expect(created.statusCode).toBe(200);
    const { id, secret } = created.json<{ id: string; secret: string }>();
    expect(secret.length).toBeGreaterThanOrEqual(43);
    const list = await call(t, 'GET', '/api/self/oauth2', { token: owner.token });
    expect(list.json()).toEqual([{ client_id: id, name: 'ci', description: 'bot', revoked: false }]);
    expect(list.body).not.toContain(secret);
    expect((await call(t, 'GET', '/api/self/oauth2', { token: other.token })).json()).toEqual([]);
    expect(code(await call(t, 'DELETE', `/api/self/oauth2/${id}`, { token: other.token }))).toBe(
      'ErrClientNotFound',
    );
    const stored = await t.db.kysely
      .selectFrom('oauth2_clients')
      .select('secret_hash')
      .where('id', '=', id)
      .executeTakeFirst();
    expect(stored?.secret_hash).not.toBe(secret);
  });

  it('client_credentials by form, basic auth or JSON; the token acts as the owner with current permissions', async () => {
    const { id, secret } = (
      await call(t, 'POST', '/api/self/oauth2', { token: owner.token, body: { name: 'auto' } })
    ).json<{ id: string; secret: string }>();
    const viaForm = await form({ grant_type: 'client_credentials', client_id: id, client_secret: secret });
    expect(viaForm.statusCode).toBe(200);
    expect(viaForm.headers['cache-control']).toBe('no-store');
    const token = viaForm.json<Token>();
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'users.view' });
    const basic = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    expect((await form({ grant_type: 'client_credentials' }, { authorization: basic })).statusCode).toBe(200);
    const viaJson = await call(t, 'POST', '/oauth2/token', {
      body: { grant_type: 'client_credentials', client_id: id, client_secret: secret },
    });
    expect(viaJson.statusCode).toBe(200);

    expect((await call(t, 'GET', '/api/self', { token: token.access_token })).json()).toMatchObject({
      id: owner.id,
    });
    expect((await call(t, 'GET', '/api/users', { token: token.access_token })).statusCode).toBe(200);
    await call(t, 'PUT', `/api/users/${owner.id}/perms`, { token: admin.token, body: { viewUsers: false } });
    expect((await call(t, 'GET', '/api/users', { token: token.access_token })).statusCode).toBe(403);

    expect((await call(t, 'DELETE', `/api/self/oauth2/${id}`, { token: owner.token })).statusCode).toBe(204);
    expect((await call(t, 'GET', '/api/self', { token: token.access_token })).statusCode).toBe(401);
    const afterDelete = await form({
      grant_type: 'client_credentials',
      client_id: id,
      client_secret: secret,
    });
    expect(afterDelete.statusCode).toBe(401);
    expect(afterDelete.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses wrong secrets, unknown grants, missing fields and malformed basic auth in OAuth2 shape', async () => {
    const { id } = (await call(t, 'POST', '/api/self/oauth2', { token: other.token, body: {} })).json<{
      id: string;
    }>();
    expect(
      (await form({ grant_type: 'client_credentials', client_id: id, client_secret: 'wrong' })).json(),
    ).toMatchObject({ error: 'invalid_client' });
    expect((await form({ grant_type: 'password', username: 'a', password: 'b' })).json()).toMatchObject({
      error: 'unsupported_grant_type',
    });
    expect((await form({ grant_type: 'client_credentials' })).json()).toMatchObject({
      error: 'invalid_request',
    });
    const bad = await form(
      { grant_type: 'client_credentials' },
      { authorization: `Basic ${Buffer.from('%E0%A4%A:x').toString('base64')}` },
    );
    expect(bad.statusCode).toBe(400);
    expect(
      (
        await call(t, 'POST', '/oauth2/token', {
          body: 'not json',
          headers: { 'content-type': 'application/json' },
        })
      ).statusCode,
    ).toBe(400);
  });
});
