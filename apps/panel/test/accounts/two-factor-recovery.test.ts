/**
 * Two-factor recovery codes and the administrator's two-factor reset (docs/security.md § Two-factor): codes are
 * shown once, kept hashed, each replaces an app code at login once, a new set needs the password and an app
 * code; an editor may reset someone's two-factor only on an account they could edit anyway. Each is recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp, type TestUser } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { totpCode } from '../helpers/otp';

type Res = Awaited<ReturnType<typeof call>>;
const code = (res: Res) => res.json<ErrorBody>().error.code;

describe.each(DIALECTS)('two-factor recovery on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t?.close());

  /** Two-factor on through the API; the secret and the recovery codes it answered. */
  async function enableOtp(u: TestUser): Promise<{ secret: string; codes: string[] }> {
    const { secret } = (await call(t, 'POST', '/api/self/otp', { token: u.token })).json<{
      secret: string;
    }>();
    const res = await call(t, 'PUT', '/api/self/otp?recoveryCodes=true', {
      token: u.token,
      body: { token: totpCode(secret) },
    });
    expect(res.statusCode).toBe(200);
    return { secret, codes: res.json<{ recoveryCodes: string[] }>().recoveryCodes };
  }

  /** Password, then `second` as the second factor. */
  async function login(u: TestUser, second: string): Promise<Res> {
    const first = await call(t, 'POST', '/auth/login', { body: { email: u.email, password: u.password } });
    const pending = first.cookies.find((c) => c.name === 'hearth_otp')?.value ?? '';
    expect(pending).not.toBe('');
    return t.app.inject({
      method: 'POST',
      url: '/auth/otp',
      payload: { token: second },
      cookies: { hearth_otp: pending },
    });
  }

  const left = async (u: TestUser) =>
    (await call(t, 'GET', '/api/self', { token: u.token })).json<{ recoveryCodesLeft: number }>()
      .recoveryCodesLeft;
  const actions = async (userId: string) =>
    (await t.db.kysely.selectFrom('activity').select(['action', 'details']).execute())
      .filter((row) => row.details.includes(userId) || row.action.startsWith('account.otp.recovery'))
      .map((row) => row.action);

  it('ten codes, hashed at rest; each works once at login in place of an app code', async () => {
    const u = await createUser(t);
    expect(await left(u)).toBe(0);
    const { codes } = await enableOtp(u);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(await left(u)).toBe(10);
    const stored = await t.db.kysely
      .selectFrom('otp_recovery_codes')
      .selectAll()
      .where('user_id', '=', u.id)
      .execute();
    expect(stored).toHaveLength(10);
    for (const row of stored) {
      expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(codes.some((c) => row.code_hash.includes(c.replace('-', '')))).toBe(false);
    }

    // Typed with capitals and without the dash it still counts; a second use is refused as a wrong code.
    const typed = codes[0]!.replace('-', '').toUpperCase();
    const ok = await login(u, typed);
    expect(ok.statusCode).toBe(200);
    expect(ok.json<{ session: string }>().session.length).toBeGreaterThan(20);
    expect(await left(u)).toBe(9);
    expect(code(await login(u, codes[0]!))).toBe('ErrOtpWrong');
    expect(code(await login(u, 'abcde-fghjk'))).toBe('ErrOtpWrong');
    expect(await actions(u.id)).toContain('account.otp.recovery.used');
  });

  it('a new set needs the password and an app code, and the old set stops working', async () => {
    const u = await createUser(t);
    const { secret, codes } = await enableOtp(u);
    const regenerate = (body: object) => call(t, 'POST', '/api/self/otp/recovery', { token: u.token, body });
    expect(code(await regenerate({ password: 'wrong password', token: totpCode(secret, 1) }))).toBe(
      'ErrInvalidCredentials',
    );
    expect(code(await regenerate({ password: u.password, token: '000000' }))).toBe('ErrOtpWrong');
    const res = await regenerate({ password: u.password, token: totpCode(secret, 1) });
    expect(res.statusCode).toBe(200);
    const fresh = res.json<{ recoveryCodes: string[] }>().recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => codes.includes(c))).toBe(false);
    expect(code(await login(u, codes[1]!))).toBe('ErrOtpWrong');
    expect((await login(u, fresh[1]!)).statusCode).toBe(200);
    expect(await actions(u.id)).toContain('account.otp.recovery.regenerated');
  });

  it('without two-factor there is nothing to regenerate; turning it off drops the codes', async () => {
    const u = await createUser(t);
    expect(
      code(
        await call(t, 'POST', '/api/self/otp/recovery', {
          token: u.token,
          body: { password: u.password, token: '123456' },
        }),
      ),
    ).toBe('ErrOtpNotEnrolling');
    const { secret } = await enableOtp(u);
    const off = await call(t, 'DELETE', `/api/self/otp/${totpCode(secret, 1)}`, { token: u.token });
    expect(off.statusCode).toBe(204);
    expect(await left(u)).toBe(0);
    const rows = await t.db.kysely
      .selectFrom('otp_recovery_codes')
      .selectAll()
      .where('user_id', '=', u.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('an administrator resets a lost device: two-factor off, codes gone, recorded', async () => {
    const admin = await createUser(t, { admin: true });
    const u = await createUser(t);
    await enableOtp(u);
    const res = await call(t, 'DELETE', `/api/users/${u.id}/otp`, { token: admin.token });
    expect(res.statusCode).toBe(204);
    expect((await call(t, 'GET', '/api/self', { token: u.token })).json()).toMatchObject({
      otpEnabled: false,
      recoveryCodesLeft: 0,
    });
    const login = await call(t, 'POST', '/auth/login', { body: { email: u.email, password: u.password } });
    expect(login.json()).toHaveProperty('session');
    expect(await actions(u.id)).toContain('user.otp.reset');
  });

  it('denied: no editUsers, or an editor resetting an account that holds more (an admin)', async () => {
    const admin = await createUser(t, { admin: true });
    const editor = await createUser(t, { viewUsers: true, editUsers: true });
    const plain = await createUser(t);
    const victim = await createUser(t);
    await enableOtp(victim);
    await enableOtp(admin);
    expect((await call(t, 'DELETE', `/api/users/${victim.id}/otp`)).statusCode).toBe(401);
    const refused = await call(t, 'DELETE', `/api/users/${victim.id}/otp`, { token: plain.token });
    expect([refused.statusCode, code(refused)]).toEqual([403, 'ErrNoPermission']);
    const escalation = await call(t, 'DELETE', `/api/users/${admin.id}/otp`, { token: editor.token });
    expect([escalation.statusCode, code(escalation)]).toEqual([403, 'ErrCannotEditUser']);
    expect((await call(t, 'GET', '/api/self', { token: admin.token })).json()).toMatchObject({
      otpEnabled: true,
    });
    const missing = await call(t, 'DELETE', '/api/users/no-such-user/otp', { token: admin.token });
    expect([missing.statusCode, code(missing)]).toEqual([404, 'ErrUserNotFound']);
    // An editor may reset an account holding nothing beyond their own.
    expect((await call(t, 'DELETE', `/api/users/${victim.id}/otp`, { token: editor.token })).statusCode).toBe(
      204,
    );
  });
});
