/**
 * The panel's edges (docs/security.md § Cross-site requests, § Request budgets): cookie-only writes need the
 * panel's own Origin, and JSON bodies beyond the shape budget are refused before anything walks them.
 * Websocket upgrades with a foreign Origin are proven against a listening panel in e2e/attacks/edges.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp, type TestUser } from '../helpers/app';

const code = (res: { json<T>(): T }) => res.json<ErrorBody>().error.code;

describe('cross-site writes', () => {
  let t: TestApp;
  let u: TestUser;

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    u = await createUser(t);
  });
  afterAll(() => t?.close());

  const putLocale = (value: string, headers: Record<string, string>, cookie = true) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/userSettings/locale',
      headers,
      cookies: cookie ? { hearth_session: u.token } : {},
      payload: { value },
    });
  const locale = async () =>
    (await call(t, 'GET', '/api/userSettings', { token: u.token }))
      .json<Array<{ key: string; value: string }>>()
      .find((s) => s.key === 'locale')?.value;

  it('a cookie-only write without Origin, or from another origin, is 403 ErrCrossSiteRequest and changes nothing', async () => {
    const foreign: Array<Record<string, string>> = [
      {},
      { origin: 'http://localhost:8081' }, // another port of the same host: same site for SameSite
      { origin: 'http://game.localhost' }, // a sibling subdomain
      { origin: 'null' }, // sandboxed frames and file:// pages
      { origin: 'not a url' },
    ];
    for (const headers of foreign) {
      const res = await putLocale('de_DE', headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(code(res)).toBe('ErrCrossSiteRequest');
    }
    expect(await locale()).not.toBe('de_DE');
  });

  it("a cookie-only write from the panel's own origin works (what the browser sends)", async () => {
    const res = await putLocale('fr_FR', { origin: 'http://localhost:80', host: 'localhost' });
    expect(res.statusCode).toBe(204);
    expect(await locale()).toBe('fr_FR');
  });

  it('the bearer header needs no Origin (API clients, the web app), and reads need none', async () => {
    const viaBearer = await t.app.inject({
      method: 'PUT',
      url: '/api/userSettings/locale',
      headers: { authorization: `Bearer ${u.token}`, origin: 'https://elsewhere.example' },
      payload: { value: 'it_IT' },
    });
    expect(viaBearer.statusCode).toBe(204);
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/userSettings',
      cookies: { hearth_session: u.token },
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(read.statusCode).toBe(200);
    // No credentials at all: the usual 401, not a cross-site refusal.
    const anonymous = await t.app.inject({ method: 'PUT', url: '/api/userSettings/locale', payload: {} });
    expect(code(anonymous)).toBe('ErrNotLoggedIn');
  });

  it("the masterUrl's origin counts as the panel's own (a proxy that rewrites Host)", async () => {
    const before = await putLocale('es_ES', { origin: 'https://panel.example.org', host: '127.0.0.1:8080' });
    expect(code(before)).toBe('ErrCrossSiteRequest');
    await t.services.settings.write({ 'panel.settings.masterUrl': 'https://panel.example.org/hearth/' });
    const after = await putLocale('es_ES', { origin: 'https://panel.example.org', host: '127.0.0.1:8080' });
    expect(after.statusCode).toBe(204);
    expect(code(await putLocale('es_ES', { origin: 'https://other.example.org' }))).toBe(
      'ErrCrossSiteRequest',
    );
  });
});

describe('forwarded origin with web.trustProxy', () => {
  let trusted: TestApp;
  let plain: TestApp;

  beforeAll(async () => {
    [trusted, plain] = await Promise.all([
      buildTestApp('sqlite', { web: { trustProxy: true } }),
      buildTestApp('sqlite'),
    ]);
  });
  afterAll(async () => {
    await trusted?.close();
    await plain?.close();
  });

  const forwarded = async (t: TestApp) => {
    const u = await createUser(t);
    return t.app.inject({
      method: 'PUT',
      url: '/api/userSettings/locale',
      headers: {
        origin: 'https://panel.example.net',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'panel.example.net',
      },
      cookies: { hearth_session: u.token },
      payload: { value: 'de_DE' },
    });
  };

  it('X-Forwarded-Proto/Host define the own origin only when the proxy is trusted', async () => {
    expect((await forwarded(trusted)).statusCode).toBe(204);
    expect(code(await forwarded(plain))).toBe('ErrCrossSiteRequest');
  });
});

describe('body budget before work', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(() => t?.close());

  const post = (url: string, payload: string, token?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload,
    });

  it('an unauthenticated login body nested 4,500 levels deep is 400 ErrBodyTooComplex, not 500', async () => {
    const deep = `{"email":${'['.repeat(4500)}${']'.repeat(4500)},"password":"x"}`;
    expect(deep.length).toBeLessThan(10_000);
    const res = await post('/auth/login', deep);
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().error).toMatchObject({
      code: 'ErrBodyTooComplex',
      metadata: { maxDepth: 64, maxValues: 100_000 },
    });
    // Objects nest the same way.
    const objects = `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`;
    expect(code(await post('/auth/login', objects))).toBe('ErrBodyTooComplex');
  });

  it('a flat body with more values than the budget is refused too', async () => {
    const u = await createUser(t);
    const wide = JSON.stringify({ value: new Array(100_001).fill(0) });
    expect(code(await post('/api/self/oauth2', wide, u.token))).toBe('ErrBodyTooComplex');
  });

  it('ordinary bodies still validate: NUL bytes, wrong types, a real login attempt', async () => {
    const nul = await post('/auth/login', JSON.stringify({ email: 'a@b.c', password: 'x\u0000y' }));
    expect(nul.json<ErrorBody>().error).toMatchObject({
      code: 'ErrFieldMustBePrintable',
      metadata: { field: 'password' },
    });
    const nested = await post('/auth/login', JSON.stringify({ email: { a: [{ b: 'x\u0000' }] } }));
    expect(nested.json<ErrorBody>().error.metadata).toEqual({ field: 'email.a.0.b' });
    expect(code(await post('/auth/login', JSON.stringify({ email: 5, password: 'x' })))).toBe(
      'ErrFieldInvalid',
    );
    const u = await createUser(t);
    const ok = await post('/auth/login', JSON.stringify({ email: u.email, password: u.password }));
    expect(ok.statusCode).toBe(200);
    expect(code(await post('/auth/login', '{"email":'))).toBe('ErrInvalidJson');
    expect(code(await post('/auth/login', '{"__proto__":{"x":1}}'))).toBe('ErrInvalidJson');
  });
});
