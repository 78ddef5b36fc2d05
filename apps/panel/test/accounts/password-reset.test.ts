/**
 * "Forgot password" by e-mail (docs/security.md § Password reset), over real SMTP to the capture process: the
 * request answers the same for every address, the mailed link works once, expires, sets the password, ends the
 * account's sessions and is recorded; without an e-mail provider nothing is sent and the login page is told so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { call, createUser, type TestApp, type TestUser } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { buildMailTestApp } from '../helpers/mail-app';
import type { SmtpCapture } from '../helpers/mail-servers';

type Res = Awaited<ReturnType<typeof call>>;
const code = (res: Res) => res.json<ErrorBody>().error.code;
const decodeQp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe.each(DIALECTS)('password reset on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let admin: TestUser;

  beforeAll(async () => {
    ({ t, smtp, admin } = await buildMailTestApp(dialect, 'Acme Hosting'));
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const forgot = (email: string) => call(t, 'POST', '/auth/password/forgot', { body: { email } });
  const reset = (token: string, password: string) =>
    call(t, 'POST', '/auth/password/reset', { body: { token, password } });
  /** The token of the last reset mail to `email`. */
  async function mailedToken(email: string): Promise<string> {
    await t.services.email.idle();
    const mails = smtp.mails.filter(
      (m) => m.to.includes(email) && decodeQp(m.raw).includes('/auth/reset?token='),
    );
    const raw = decodeQp(mails.at(-1)?.raw ?? '');
    return decodeURIComponent(
      /https:\/\/panel\.hearth\.test\/auth\/reset\?token=([A-Za-z0-9_%-]+)/.exec(raw)?.[1] ?? '',
    );
  }

  it('the login page is told that reset is offered only with a provider', async () => {
    expect((await call(t, 'GET', '/api/config')).json()).toMatchObject({ passwordResetEnabled: true });
  });

  it('same answer for a known and an unknown address; only the account owner gets a mail', async () => {
    const u = await createUser(t);
    const known = await forgot(u.email.toUpperCase());
    const unknown = await forgot('nobody-here@example.com');
    expect([known.statusCode, known.body]).toEqual([204, '']);
    expect([unknown.statusCode, unknown.body]).toEqual([204, '']);
    expect(await mailedToken(u.email)).not.toBe('');
    expect(smtp.mails.some((m) => m.to.includes('nobody-here@example.com'))).toBe(false);
    const stored = await t.db.kysely
      .selectFrom('password_resets')
      .selectAll()
      .where('user_id', '=', u.id)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the link sets a new password once, ends every session and is recorded', async () => {
    const u = await createUser(t);
    expect((await forgot(u.email)).statusCode).toBe(204);
    const token = await mailedToken(u.email);
    expect(code(await reset(token, 'short'))).toBe('ErrPasswordRequirements');
    expect(code(await reset('forged', 'a brand new password'))).toBe('ErrResetLinkInvalid');
    expect((await reset(token, 'a brand new password')).statusCode).toBe(204);
    expect((await call(t, 'GET', '/api/self', { token: u.token })).statusCode).toBe(401);
    expect(code(await reset(token, 'another new password'))).toBe('ErrResetLinkInvalid');
    const login = await call(t, 'POST', '/auth/login', {
      body: { email: u.email, password: 'a brand new password' },
    });
    expect(login.statusCode).toBe(200);
    const rows = await t.db.kysely
      .selectFrom('activity')
      .select(['action', 'actor_id'])
      .where('actor_id', '=', u.id)
      .execute();
    const actions = rows.map((r) => r.action);
    expect(actions).toContain('account.password.reset.requested');
    expect(actions).toContain('account.password.reset');
    // The owner is told the password changed.
    await t.services.email.idle();
    expect(
      smtp.mails.some((m) => m.to.includes(u.email) && m.raw.includes('Your password was changed')),
    ).toBe(true);
  });

  it('an expired link is refused; a newer reset ends the older links', async () => {
    const u = await createUser(t);
    await forgot(u.email);
    const first = await mailedToken(u.email);
    await forgot(u.email);
    const second = await mailedToken(u.email);
    expect(second).not.toBe(first);
    await t.db.kysely
      .updateTable('password_resets')
      .set({ expires_at: Date.now() - 1 })
      .where('user_id', '=', u.id)
      .execute();
    expect(code(await reset(second, 'a brand new password'))).toBe('ErrResetLinkInvalid');
    await t.db.kysely
      .updateTable('password_resets')
      .set({ expires_at: Date.now() + 60_000 })
      .where('user_id', '=', u.id)
      .execute();
    expect((await reset(second, 'a brand new password')).statusCode).toBe(204);
    expect(code(await reset(first, 'a third password'))).toBe('ErrResetLinkInvalid');
  });

  it('rate limited like login, per address', async () => {
    const address = 'limited@example.com';
    let last: Res | undefined;
    for (let i = 0; i < 10 && last?.statusCode !== 429; i++) last = await forgot(address);
    expect([last?.statusCode, last && code(last)]).toEqual([429, 'ErrRateLimited']);
  });

  it('without an e-mail provider nothing is stored or sent, and the answer is the same', async () => {
    await t.services.settings.write({ 'panel.email.provider': 'none' });
    try {
      expect((await call(t, 'GET', '/api/config')).json()).toMatchObject({ passwordResetEnabled: false });
      await t.services.email.idle(); // earlier tests' mails are all in
      const before = smtp.mails.length;
      expect((await forgot(admin.email)).statusCode).toBe(204);
      await t.services.email.idle();
      expect(smtp.mails.length).toBe(before);
      const rows = await t.db.kysely
        .selectFrom('password_resets')
        .selectAll()
        .where('user_id', '=', admin.id)
        .execute();
      expect(rows).toEqual([]);
    } finally {
      await t.services.settings.write({ 'panel.email.provider': 'smtp' });
    }
  });
});
