/**
 * TOTP secrets and mail provider credentials are sealed at rest (docs/security.md § Secrets at rest): the raw
 * database rows hold no clear secret, on every dialect (the otp columns are varchar(64): the sealed form must
 * fit), two-factor login still works, and values written before sealing existed are still read.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { totpCode } from '../helpers/otp';

describe.each(DIALECTS)('secrets at rest on %s', (dialect) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = (await createUser(t, { admin: true })).token;
  });
  afterAll(() => t?.close());

  const row = (id: string) =>
    t.db.kysely
      .selectFrom('users')
      .select(['otp_secret', 'otp_pending_secret'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  const otp = (cookie: string, token: string) =>
    t.app.inject({ method: 'POST', url: '/auth/otp', payload: { token }, cookies: { hearth_otp: cookie } });

  it('the TOTP secret is stored sealed (pending and active), and login with the code works', async () => {
    const u = await createUser(t);
    const { secret } = (await call(t, 'POST', '/api/self/otp', { token: u.token })).json<{
      secret: string;
    }>();
    const pending = await row(u.id);
    expect(pending.otp_pending_secret).toBeTruthy();
    expect(pending.otp_pending_secret).not.toContain(secret);
    const confirm = await call(t, 'PUT', '/api/self/otp', {
      token: u.token,
      body: { token: totpCode(secret) },
    });
    expect(confirm.statusCode).toBe(204);
    const active = await row(u.id);
    expect(active.otp_secret).toHaveLength(64);
    expect(active.otp_secret).not.toContain(secret);
    expect(active.otp_secret?.toUpperCase()).not.toContain(secret.slice(0, 16));
    const first = await login(u.email, u.password);
    expect(first.json()).toEqual({ otpNeeded: true });
    const cookie = first.cookies.find((c) => c.name === 'hearth_otp')?.value ?? '';
    expect((await otp(cookie, '000000')).json<ErrorBody>().error.code).toBe('ErrOtpWrong');
    const done = await otp(cookie, totpCode(secret, 1));
    expect(done.statusCode).toBe(200);
    // The key lives in the data folder, owner-only.
    expect(statSync(join(t.config.panel.dataDir, 'keys', 'secrets.key')).mode & 0o777).toBe(0o600);
  });

  it('a clear TOTP secret from before sealing still logs in; re-enrolling stores it sealed', async () => {
    const u = await createUser(t);
    const legacy = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    await t.db.kysely
      .updateTable('users')
      .set({ otp_secret: legacy, otp_enabled: 1 })
      .where('id', '=', u.id)
      .execute();
    const first = await login(u.email, u.password);
    const cookie = first.cookies.find((c) => c.name === 'hearth_otp')?.value ?? '';
    expect((await otp(cookie, totpCode(legacy))).statusCode).toBe(200);
    const { secret } = (await call(t, 'POST', '/api/self/otp', { token: u.token })).json<{
      secret: string;
    }>();
    await call(t, 'PUT', '/api/self/otp', { token: u.token, body: { token: totpCode(secret, 1) } });
    expect((await row(u.id)).otp_secret).not.toBe(legacy);
    expect((await row(u.id)).otp_secret).not.toContain(secret);
  });

  it('mail provider password and key are stored sealed and read back in clear by the panel only', async () => {
    const body = { 'panel.email.password': 'smtp-password-42', 'panel.email.key': 'key-123:secret-456' };
    expect((await call(t, 'POST', '/api/settings', { token: admin, body })).statusCode).toBe(204);
    const rows = await t.db.kysely
      .selectFrom('settings')
      .select(['key', 'value'])
      .where('key', 'in', ['panel.email.password', 'panel.email.key'])
      .execute();
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.value).not.toContain('smtp-password-42');
      expect(r.value).not.toContain('secret-456');
    }
    const effective = await t.services.settings.effective();
    expect(effective['panel.email.password']).toBe('smtp-password-42');
    expect(effective['panel.email.key']).toBe('key-123:secret-456');
    // The API still never shows them.
    const read = await call(t, 'GET', '/api/settings/panel.email.password', { token: admin });
    expect(read.json()).toEqual({ value: '' });
  });

  it('a clear mail password from before sealing is read as it is, and sealed on its next write', async () => {
    await t.services.settingsRepo.setMany([['panel.email.password', 'old-clear-password']]);
    expect((await t.services.settings.effective())['panel.email.password']).toBe('old-clear-password');
    await t.services.settings.write({ 'panel.email.password': 'old-clear-password' });
    const raw = await t.services.settingsRepo.get('panel.email.password');
    expect(raw).not.toBe('old-clear-password');
    expect((await t.services.settings.effective())['panel.email.password']).toBe('old-clear-password');
  });
});
