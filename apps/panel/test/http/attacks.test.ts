import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';

const code = (res: { json<T>(): T }) => res.json<ErrorBody>().error.code;
const limit = (max: number) => ({ max, windowMs: 60_000 });

describe.each(DIALECTS)('attacks on %s', (dialect) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createUser>>;

  beforeAll(async () => {
    t = await buildTestApp(
      dialect,
      {},
      {
        limits: {
          loginPerIp: limit(8),
          loginPerAccount: limit(3),
          otpPerIp: limit(20),
          otpPerAccount: limit(5),
          registerPerIp: limit(50),
          tokenPerIp: limit(30),
          tokenPerClient: limit(10),
        },
      },
    );
    admin = await createUser(t, { admin: true });
    await t.services.settings.write({ 'panel.registrationEnabled': true });
  });
  afterAll(() => t?.close());

  const count = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('locks an account after 3 attempts a minute (429 + Retry-After), even with the right password', async () => {
    const u = await createUser(t);
    for (let i = 0; i < 3; i += 1) {
      expect(
        code(await call(t, 'POST', '/auth/login', { body: { email: u.email, password: 'wrong' } })),
      ).toBe('ErrInvalidCredentials');
    }
    const locked = await call(t, 'POST', '/auth/login', { body: { email: u.email, password: u.password } });
    expect(locked.statusCode).toBe(429);
    expect(code(locked)).toBe('ErrRateLimited');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits one IP across accounts', async () => {
    const results: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      results.push(
        (await call(t, 'POST', '/auth/login', { body: { email: `probe${i}@x.io`, password: 'x' } }))
          .statusCode,
      );
    }
    expect(results).toContain(429);
  });

  it('SQL metacharacters and 10 kB strings in every field give catalogued 4xx and change nothing', async () => {
    const before = await count();
    const nasty = ["' OR '1'='1", "'; DROP TABLE users; --", 'x'.repeat(10_240), '\u0000', '😀'.repeat(3000)];
    const bodies = (s: string): Array<[string, string, object]> => [
      ['POST', '/auth/login', { email: s, password: s }],
      ['POST', '/auth/register', { username: s, email: s, password: s }],
      ['POST', '/auth/otp', { token: s }],
      ['POST', '/auth/invite', { token: s, username: s, password: s }],
      ['POST', '/auth/setup', { token: s, username: s, email: s, password: s }],
      ['POST', '/api/users', { username: s, email: `${s}@x.io`, password: s }],
      ['PUT', '/api/self', { username: s, email: s, password: s }],
      ['POST', '/api/self/oauth2', { name: s, description: 'x'.repeat(20_000) }],
      ['PUT', '/api/settings/panel.settings.masterUrl', { value: s }],
    ];
    for (const s of nasty) {
      for (const [method, url, body] of bodies(s)) {
        const res = await call(t, method, url, { token: admin.token, body });
        expect(res.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${method} ${url}`).toBeLessThan(500);
        expect(res.json<ErrorBody>().error.code).toMatch(/^Err/);
      }
      for (const url of [
        `/api/users/${encodeURIComponent(s.slice(0, 60))}`,
        `/api/users?username=${encodeURIComponent(s.slice(0, 90))}`,
      ]) {
        expect((await call(t, 'GET', url, { token: admin.token })).statusCode, url).toBeLessThan(500);
      }
    }
    expect(await count()).toBe(before);
    const long = await call(t, 'PUT', '/api/userSettings/dark', {
      token: admin.token,
      body: { value: 'x'.repeat(10_240) },
    });
    expect(code(long)).toBe('ErrFieldTooLarge');
    const nul = await call(t, 'PUT', '/api/userSettings/dark', {
      token: admin.token,
      body: { value: 'a\u0000b' },
    });
    expect(code(nul)).toBe('ErrFieldMustBePrintable');
    // Short metacharacter strings are data like any other: stored and read back literally.
    const sqlish = "'; DROP TABLE users; --";
    expect(
      (await call(t, 'PUT', '/api/userSettings/dark', { token: admin.token, body: { value: sqlish } }))
        .statusCode,
    ).toBe(204);
    expect((await call(t, 'GET', '/api/userSettings', { token: admin.token })).json()).toEqual([
      { key: 'dark', value: sqlish },
    ]);
  });

  it('concurrent registrations of the same e-mail: exactly one wins', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(t, 'POST', '/auth/register', {
          body: { username: `racer${i}`, email: 'Race@Example.com', password: 'long enough' },
        }),
      ),
    );
    const statuses = attempts.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    expect(attempts.filter((r) => r.statusCode === 409).every((r) => code(r) === 'ErrDuplicateUser')).toBe(
      true,
    );
  });

  it('a revoked or forged session is refused', async () => {
    const u = await createUser(t);
    await call(t, 'POST', '/auth/logout', { token: u.token });
    for (const token of [u.token, 'forged-token', 'x'.repeat(600)]) {
      expect((await call(t, 'GET', '/api/self', { token })).statusCode).toBe(401);
    }
    const malformed = await t.app.inject({
      method: 'GET',
      url: '/api/self',
      headers: { authorization: 'Basic abc' },
    });
    expect(malformed.statusCode).toBe(401);
  });
});

describe.each(DIALECTS)('first-run setup on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('a single-use token creates the first admin; then it is invalid', async () => {
    const token = (await t.services.setup.prepare()) ?? '';
    expect(token.length).toBeGreaterThanOrEqual(43);
    const body = { token, username: 'root', email: 'root@example.com', password: 'long enough' };
    expect(code(await call(t, 'POST', '/auth/setup', { body: { ...body, token: 'wrong' } }))).toBe(
      'ErrSetupTokenInvalid',
    );
    expect(code(await call(t, 'POST', '/auth/setup', { body: { ...body, password: 'short' } }))).toBe(
      'ErrPasswordRequirements',
    );
    const attempts = await Promise.all([1, 2, 3].map(() => call(t, 'POST', '/auth/setup', { body })));
    expect(attempts.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
    const winner = attempts.find((r) => r.statusCode === 200);
    expect(winner?.json<{ scopes: string[] }>().scopes).toContain('servers.admin');
    expect(code(await call(t, 'POST', '/auth/setup', { body }))).toBe('ErrSetupTokenInvalid');
    expect(await t.services.setup.prepare()).toBeUndefined();
  });
});
