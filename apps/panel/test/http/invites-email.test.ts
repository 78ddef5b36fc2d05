import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { call, createUser, type TestApp, type TestUser } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { buildMailTestApp } from '../helpers/mail-app';
import { startHttpStandIn, type SmtpCapture } from '../helpers/mail-servers';

const code = (res: { json<T>(): T }) => res.json<ErrorBody>().error.code;

/** Undo quoted-printable soft breaks and `=3D` so links in the raw message can be read. */
function decodeQp(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

describe.each(DIALECTS)('invitations and e-mail on %s', (dialect) => {
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

  it('invite → e-mail over real SMTP with HTML + text → accept once → logged in', async () => {
    expect((await call(t, 'POST', '/api/users/invite', { body: { email: 'x@y.io' } })).statusCode).toBe(401);
    const plain = await createUser(t);
    expect(
      (await call(t, 'POST', '/api/users/invite', { token: plain.token, body: { email: 'x@y.io' } }))
        .statusCode,
    ).toBe(403);
    expect(
      code(await call(t, 'POST', '/api/users/invite', { token: admin.token, body: { email: 'nope' } })),
    ).toBe('ErrFieldNotEmail');
    const res = await call(t, 'POST', '/api/users/invite', {
      token: admin.token,
      body: { email: 'Guest@Example.com' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('token');
    await t.services.email.idle();
    const mail = smtp.mails.find((m) => m.to.includes('guest@example.com'));
    expect(mail?.from).toBe('panel@hearth.test');
    const raw = decodeQp(mail?.raw ?? '');
    expect(raw).toContain('multipart/alternative');
    expect(raw).toContain('text/html');
    expect(raw).toContain('Acme Hosting');
    const token = /https:\/\/panel\.hearth\.test\/auth\/invite\?token=([A-Za-z0-9_%-]+)/.exec(raw)?.[1] ?? '';
    expect(token).not.toBe('');

    // The pending account cannot log in and cannot be invited twice.
    expect(
      code(
        await call(t, 'POST', '/api/users/invite', {
          token: admin.token,
          body: { email: 'guest@example.com' },
        }),
      ),
    ).toBe('ErrDuplicateUser');
    const accept = (body: object) => call(t, 'POST', '/auth/invite', { body });
    expect(code(await accept({ token: 'forged', username: 'guest', password: 'long enough' }))).toBe(
      'ErrInviteLinkInvalid',
    );
    expect(code(await accept({ token, username: 'g', password: 'long enough' }))).toBe(
      'ErrUsernameRequirements',
    );
    const ok = await accept({ token: decodeURIComponent(token), username: 'guest', password: 'long enough' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json<{ scopes: string[] }>().scopes).toEqual([]);
    expect(
      code(await accept({ token: decodeURIComponent(token), username: 'guest2', password: 'long enough' })),
    ).toBe('ErrInviteLinkInvalid');
    const login = await call(t, 'POST', '/auth/login', {
      body: { email: 'guest@example.com', password: 'long enough' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('the inviter is told whether the mail went out, and gets the link once either way', async () => {
    const invite = (email: string) =>
      call(t, 'POST', '/api/users/invite', { token: admin.token, body: { email } });
    const sent = await invite('told-sent@example.com');
    expect(sent.json()).toMatchObject({ email: 'told-sent@example.com', mail: 'sent' });
    const link = sent.json<{ link: string }>().link;
    expect(link).toMatch(/^https:\/\/panel\.hearth\.test\/auth\/invite\?token=/);
    expect(smtp.mails.some((m) => decodeQp(m.raw).includes(link))).toBe(true);

    await t.services.settings.write({ 'panel.email.host': '127.0.0.1:1' });
    try {
      const failed = await invite('told-failed@example.com');
      expect(failed.json()).toMatchObject({ mail: 'failed' });
      const token = decodeURIComponent(failed.json<{ link: string }>().link.split('token=')[1] ?? '');
      // The handed-over link works like a mailed one.
      const accepted = await call(t, 'POST', '/auth/invite', {
        body: { token, username: 'handed_over', password: 'long enough' },
      });
      expect(accepted.statusCode).toBe(200);
      await t.services.settings.write({ 'panel.email.provider': 'none' });
      expect((await invite('told-none@example.com')).json()).toMatchObject({ mail: 'noProvider' });
    } finally {
      await t.services.settings.write({
        'panel.email.provider': 'smtp',
        'panel.email.host': `127.0.0.1:${smtp.port}`,
      });
    }
    // Until they register, the users list names a pending account by its e-mail.
    const page = await call(t, 'GET', '/api/users?page=1&limit=100', { token: admin.token });
    const users = page.json<{ users: Array<{ email: string; username: string; pending?: boolean }> }>().users;
    expect(users.find((u) => u.email === 'told-none@example.com')).toMatchObject({
      username: 'told-none@example.com',
      pending: true,
    });
    expect(users.find((u) => u.email === 'told-failed@example.com')).toMatchObject({
      username: 'handed_over',
    });
  });

  it('an expired invitation is refused', async () => {
    const res = await t.services.invites.invite('late@example.com');
    await t.db.kysely
      .updateTable('invites')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    const accept = await call(t, 'POST', '/auth/invite', {
      body: { token: res.token, username: 'late', password: 'long enough' },
    });
    expect(code(accept)).toBe('ErrInviteLinkInvalid');
  });

  it('password change mails the owner; a failing provider never fails the request', async () => {
    const u = await createUser(t);
    const change = await call(t, 'PUT', '/api/self', {
      token: u.token,
      body: { password: u.password, newPassword: 'another password' },
    });
    expect(change.statusCode).toBe(204);
    await t.services.email.idle();
    expect(
      smtp.mails.some((m) => m.to.includes(u.email) && m.raw.includes('Your password was changed')),
    ).toBe(true);
    await t.services.settings.write({ 'panel.email.host': '127.0.0.1:1' });
    const received = smtp.mails.length;
    const again = await call(t, 'PUT', '/api/self', {
      token: u.token,
      body: { password: 'another password', newPassword: 'third password' },
    });
    expect(again.statusCode).toBe(204);
    await t.services.email.idle();
    // Nothing reached the capture: the mail went to the dead host (the capture acknowledges before accepting,
    // so a mail it had accepted would be counted here already).
    expect(smtp.mails.length).toBe(received);
    expect(
      (await call(t, 'POST', '/auth/login', { body: { email: u.email, password: 'third password' } }))
        .statusCode,
    ).toBe(200);
    await t.services.settings.write({ 'panel.email.host': `127.0.0.1:${smtp.port}` });
  });

  it('mailgun and mailjet go to their HTTP APIs at the configured base URLs', async () => {
    const standIn = await startHttpStandIn();
    const config = {
      ...t.config,
      email: { ...t.config.email, mailgunBaseUrl: standIn.url, mailjetBaseUrl: standIn.url },
    };
    const { EmailService } = await import('../../src/modules/email/email.service');
    const email = new EmailService(
      t.services.settings,
      config,
      () => t.app.log,
      () => Promise.resolve(undefined),
    );
    await t.services.settings.write({
      'panel.email.provider': 'mailgun',
      'panel.email.domain': 'mg.hearth.test',
      'panel.email.key': 'key-123',
    });
    email.send('otpEnabled', 'ann@example.com', { username: 'ann' });
    // Sending resolves the recipient's language first and reads the provider after: let it finish before
    // switching providers, or the first message may already see mailjet.
    await email.idle();
    await t.services.settings.write({ 'panel.email.provider': 'mailjet', 'panel.email.key': 'pub:priv' });
    await email.idle();
    email.send('oauthCreated', 'bob@example.com', { username: 'bob', clientName: '<script>' });
    await email.idle();
    await standIn.close();
    const [mailgun, mailjet] = standIn.requests;
    expect(mailgun?.url).toBe('/v3/mg.hearth.test/messages');
    expect(mailgun?.headers.authorization).toBe(`Basic ${Buffer.from('api:key-123').toString('base64')}`);
    const form = new URLSearchParams(mailgun?.body);
    expect(form.get('to')).toBe('ann@example.com');
    expect(form.get('html')).toContain('<p>');
    expect(form.get('text')).toContain('Two-factor authentication is now on for your account ann');
    expect(mailjet?.url).toBe('/v3.1/send');
    expect(mailjet?.headers.authorization).toBe(`Basic ${Buffer.from('pub:priv').toString('base64')}`);
    const message = (
      JSON.parse(mailjet?.body ?? '{}') as {
        Messages: Array<{ HTMLPart: string; To: Array<{ Email: string }> }>;
      }
    ).Messages[0];
    expect(message?.To[0]?.Email).toBe('bob@example.com');
    expect(message?.HTMLPart).toContain('&#60;script&#62;');
    await t.services.settings.write({ 'panel.email.provider': 'smtp' });
  });
});
