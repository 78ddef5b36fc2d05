import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { call, createUser, type TestApp, type TestUser } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { buildMailTestApp } from '../helpers/mail-app';
import type { SmtpCapture } from '../helpers/mail-servers';
import { parseMail, type ParsedMail } from '../helpers/mime';

const error = (res: { json<T>(): T }) => res.json<ErrorBody>().error;

/** Issue 10: e-mails in the recipient's language → panel default → English, over real SMTP. */
describe.each(DIALECTS)('e-mail language on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let admin: TestUser;

  beforeAll(async () => {
    ({ t, smtp, admin } = await buildMailTestApp(dialect, 'Acme <Hosting>'));
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function mailTo(address: string): Promise<ParsedMail> {
    await t.services.email.idle();
    const raw = smtp.mails.find((m) => m.to.includes(address.toLowerCase()))?.raw;
    expect(raw, `a mail to ${address}`).toBeDefined();
    return parseMail(raw ?? '');
  }

  /** A user (optionally with a saved locale) who changes their password. */
  async function passwordChangedMail(locale?: string): Promise<ParsedMail> {
    const u = await createUser(t);
    if (locale) {
      const put = await call(t, 'PUT', '/api/userSettings/locale', {
        token: u.token,
        body: { value: locale },
      });
      expect(put.statusCode).toBe(204);
    }
    const change = await call(t, 'PUT', '/api/self', {
      token: u.token,
      body: { password: u.password, newPassword: 'another password' },
    });
    expect(change.statusCode).toBe(204);
    const mail = await mailTo(u.email);
    expect(mail.text).toContain(u.username);
    return mail;
  }

  it('a user with locale de_DE gets the password notice in German', async () => {
    const mail = await passwordChangedMail('de_DE');
    expect(mail.subject).toBe('Ihr Passwort wurde geändert');
    expect(mail.text).toContain('andere Sitzungen wurden abgemeldet');
    expect(mail.text).toContain('Falls Sie das nicht waren');
    expect(mail.html).toContain('<html lang="de" dir="ltr">');
    expect(mail.html).toContain('Acme &#60;Hosting&#62; — https://panel.hearth.test');
  });

  it('a user with locale ar_SA gets a right-to-left Arabic mail', async () => {
    const mail = await passwordChangedMail('ar_SA');
    expect(mail.subject).toBe('تم تغيير كلمة المرور');
    expect(mail.html).toContain('lang="ar" dir="rtl"');
    expect(mail.html).toContain('<body lang="ar" dir="rtl"');
  });

  it('without a user locale: English while no panel default is set, then the panel default', async () => {
    const english = await passwordChangedMail();
    expect(english.subject).toBe('Your password was changed');
    expect(english.html).toContain('lang="en" dir="ltr"');
    expect((await call(t, 'GET', '/api/config')).json()).toMatchObject({ defaultLocale: 'en_US' });

    const set = await call(t, 'PUT', '/api/settings/panel.settings.defaultLocale', {
      token: admin.token,
      body: { value: 'fr_FR' },
    });
    expect(set.statusCode).toBe(204);
    expect((await call(t, 'GET', '/api/config')).json()).toMatchObject({ defaultLocale: 'fr_FR' });
    const french = await passwordChangedMail();
    expect(french.subject).toBe('Votre mot de passe a été modifié');
    expect(french.html).toContain('lang="fr"');
    // A user's own choice still wins over the panel default.
    expect((await passwordChangedMail('de_DE')).subject).toBe('Ihr Passwort wurde geändert');
    await t.services.settings.write({ 'panel.settings.defaultLocale': 'en_US' });
  });

  it('an invitation uses the admin-chosen locale (kept for the account), else the panel default', async () => {
    const invite = (body: object) => call(t, 'POST', '/api/users/invite', { token: admin.token, body });
    const res = await invite({ email: 'gast@example.com', locale: 'de_DE' });
    expect(res.statusCode).toBe(200);
    const german = await mailTo('gast@example.com');
    expect(german.subject).toBe('Einladung zu Acme <Hosting>');
    expect(german.text).toContain('https://panel.hearth.test/auth/invite?token=');
    expect(await t.services.userSettings.get(res.json<{ id: string }>().id, 'locale')).toBe('de_DE');

    await t.services.settings.write({ 'panel.settings.defaultLocale': 'fr_FR' });
    expect((await invite({ email: 'invite@example.com' })).statusCode).toBe(200);
    expect((await mailTo('invite@example.com')).subject).toBe('Invitation à rejoindre Acme <Hosting>');
    await t.services.settings.write({ 'panel.settings.defaultLocale': 'en_US' });
  });

  it('invalid locale values are refused with the field code', async () => {
    const u = await createUser(t);
    for (const value of ['xx_XX', 'de', 'de-DE', '', 'en_US ']) {
      const res = await call(t, 'PUT', '/api/userSettings/locale', { token: u.token, body: { value } });
      expect(res.statusCode, value).toBe(400);
      expect(error(res), value).toMatchObject({ code: 'ErrFieldInvalid', metadata: { field: 'value' } });
    }
    expect((await call(t, 'GET', '/api/userSettings', { token: u.token })).json()).toEqual([]);
    const panel = await call(t, 'PUT', '/api/settings/panel.settings.defaultLocale', {
      token: admin.token,
      body: { value: 'klingon' },
    });
    expect(panel.statusCode).toBe(400);
    expect(error(panel)).toMatchObject({ code: 'ErrFieldInvalid', metadata: { field: 'value' } });
    const invite = await call(t, 'POST', '/api/users/invite', {
      token: admin.token,
      body: { email: 'nobody@example.com', locale: 'tlh_XX' },
    });
    expect(invite.statusCode).toBe(400);
    expect(error(invite)).toMatchObject({ code: 'ErrFieldInvalid', metadata: { field: 'locale' } });
    const ok = await call(t, 'PUT', '/api/userSettings/locale', { token: u.token, body: { value: 'zh_TW' } });
    expect(ok.statusCode).toBe(204);
  });
});
