/**
 * Issue 16 items 3, 11 and 23 in Chromium, with mail over real SMTP (docs/security.md § Invitations, § Two-factor,
 * § Password reset): an invitation whose mail could not be sent says so and offers its link, the pending user is
 * listed by e-mail; "Forgot password?" mails a link that sets a new password; two-factor shows recovery codes
 * once, one of them logs in, and an administrator resets the two-factor of a user who lost their device.
 * At 1440×900 and (for the screens whose layout matters) 390×844.
 */
import type { Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, screenshot, useSessionIn } from './helpers/browser';
import { BrowserSuite } from './helpers/browser-suite';
import { createFirstAdmin, panelApi, type Account } from './helpers/panel';
import { startSmtpCapture, type SmtpCapture } from './helpers/smtp';

const canRun = browserAvailable('account recovery screens');
const viewports = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

describe.runIf(canRun)('invitation links, forgot password and recovery codes in Chromium', () => {
  let smtp: SmtpCapture;
  let suite: BrowserSuite;
  let admin: Account;

  const adminApi = (method: string, path: string, body?: object) =>
    panelApi(suite.panel, admin.session, method, path, body);

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    suite = await BrowserSuite.start({
      companyName: 'Ember Hosting',
      email: { provider: 'smtp', host: smtp.host, from: 'panel@hearth.test' },
    });
    admin = await createFirstAdmin(suite.panel);
    await adminApi('POST', '/api/settings', { 'panel.settings.masterUrl': suite.panel.url });
  });

  afterAll(async () => {
    await suite?.close();
    await smtp?.close();
  }, 300_000);

  it('an invitation whose mail failed says so, offers the link, and the list names the pending user', async () => {
    // Nothing listens on port 1: the provider is unreachable.
    await adminApi('POST', '/api/settings', { 'panel.email.host': '127.0.0.1:1' });
    try {
      for (const [i, viewport] of viewports.entries()) {
        const tp = await suite.fresh();
        await tp.page.setViewportSize(viewport);
        await useSessionIn(tp, suite.panel.url, admin.session, admin.scopes);
        await tp.page.goto('/user');
        await tp.page.getByRole('button', { name: 'Invite' }).click();
        const dialog = tp.page.getByRole('dialog', { name: 'Invite a user' });
        const email = `stranded${i}@example.com`;
        await dialog.getByLabel('E-mail').fill(email);
        await dialog.getByRole('button', { name: 'Send invitation' }).click();
        const result = dialog.getByTestId('invitation-result');
        await result.waitFor();
        expect(await result.getAttribute('data-mail')).toBe('failed');
        await dialog.getByText(`The invitation e-mail to ${email} could not be sent`).waitFor();
        expect(await dialog.getByText('Invitation sent').count()).toBe(0);
        const link = (await dialog.getByTestId('invitation-link').textContent()) ?? '';
        expect(link).toMatch(
          new RegExp(`^${suite.panel.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/auth/invite\\?token=`),
        );
        await screenshot(tp.page, `invite-not-sent-${viewport.width}`);
        await dialog.getByRole('button', { name: 'Close' }).click();
        // The list was refreshed and names the pending account by its e-mail, not invited-….
        await tp.page.getByText(email).first().waitFor();
        expect(await tp.page.getByText(/^invited-/).count()).toBe(0);

        // The handed-over link works.
        const guest = await suite.fresh();
        await guest.page.goto(link);
        await guest.page.getByLabel('Username').fill(`handed${i}`);
        await guest.page.getByLabel('Password', { exact: true }).fill('guest-password');
        await guest.page.getByLabel('Confirm password').fill('guest-password');
        await guest.page.getByRole('button', { name: 'Create account' }).click();
        await guest.page.waitForURL('**/account');
      }
    } finally {
      await adminApi('POST', '/api/settings', { 'panel.email.host': smtp.host });
    }
  }, 300_000);

  it('"Forgot password?" mails a link; the new password works and the old one does not', async () => {
    await adminApi('POST', '/api/users', {
      username: 'forgetful',
      email: 'forgetful@example.com',
      password: 'old-password',
    });
    for (const viewport of viewports) {
      const { page } = await suite.fresh();
      await page.setViewportSize(viewport);
      await page.goto('/auth/login');
      await page.getByTestId('forgot-password').click();
      await page.waitForURL('**/auth/reset');
      // The login form also has an E-mail field: wait for the lazily loaded request form before typing.
      await page.getByRole('button', { name: 'Send link' }).waitFor();
      await page.getByLabel('E-mail').fill('forgetful@example.com');
      await page.getByRole('button', { name: 'Send link' }).click();
      await page.getByTestId('reset-requested').waitFor();
      await screenshot(page, `reset-requested-${viewport.width}`);
    }
    // One request per viewport, and a newer link supersedes the older one: use the last of the two mails (each
    // request's mail leaves before the next request is typed).
    const subject = 'Reset your password for Ember Hosting';
    await smtp.waitFor('forgetful@example.com', subject);
    const resets = () =>
      smtp.mails.filter((m) => m.to.includes('forgetful@example.com') && m.subject === subject);
    await expect.poll(() => resets().length, { timeout: 60_000 }).toBe(viewports.length);
    const mail = resets().at(-1) ?? { body: '' };
    const links = [...mail.body.matchAll(/https?:\/\/[^\s"<>]+\/auth\/reset\?token=[A-Za-z0-9_%.~-]+/g)].map(
      (m) => m[0],
    );
    expect(links.length).toBeGreaterThan(0);

    const { page } = await suite.fresh();
    await page.goto(links[0] ?? '');
    await page.getByLabel('Password', { exact: true }).fill('brand-new-password');
    await page.getByLabel('Confirm password').fill('brand-new-password');
    await screenshot(page, 'reset-new-password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByTestId('reset-done').waitFor();
    await loginThroughForm(page, 'forgetful@example.com', 'old-password');
    await page.getByText('Invalid credentials').waitFor();
    await loginThroughForm(page, 'forgetful@example.com', 'brand-new-password');
    await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
  }, 300_000);

  it('two-factor shows recovery codes once; one logs in; an administrator resets a lost device', async () => {
    await adminApi('POST', '/api/users', {
      username: 'careful',
      email: 'careful@example.com',
      password: 'careful-password',
    });
    const { page } = await suite.fresh();
    await loginThroughForm(page, 'careful@example.com', 'careful-password');
    await page.waitForURL('**/account');
    await page.getByRole('button', { name: 'Set up two-factor' }).click();
    const secret = (await page.getByTestId('otp-secret').textContent()) ?? '';
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    await page.getByTestId('otp-code').fill(totp.generate());
    await page.getByRole('button', { name: 'Confirm' }).click();
    const list = page.getByTestId('recovery-code-list');
    await list.waitFor();
    const codes = ((await list.textContent()) ?? '').match(/[a-z2-9]{5}-[a-z2-9]{5}/g) ?? [];
    expect(codes).toHaveLength(10);
    await screenshot(page, 'recovery-codes-shown');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await expect.poll(() => page.getByTestId('recovery-left').textContent()).toBe('10 recovery codes left');
    await page.getByTestId('logout').click();
    await page.waitForURL('**/auth/login');

    await loginThroughForm(page, 'careful@example.com', 'careful-password');
    const input = page.getByTestId('otp-input');
    await input.waitFor();
    await page.getByText('Lost your device? Enter a recovery code instead.').waitFor();
    await input.fill(codes[0] ?? '');
    await input.press('Enter');
    await page.waitForURL('**/account');
    await expect.poll(() => page.getByTestId('recovery-left').textContent()).toBe('9 recovery codes left');

    // The administrator resets it from the user's page.
    const users = (await adminApi('GET', '/api/users?username=careful')) as { users: Array<{ id: string }> };
    const id = users.users[0]?.id ?? '';
    for (const viewport of viewports) {
      const tp = await suite.fresh();
      await tp.page.setViewportSize(viewport);
      await useSessionIn(tp, suite.panel.url, admin.session, admin.scopes);
      await tp.page.goto(`/user/${id}`);
      await tp.page.getByRole('button', { name: 'Reset two-factor' }).first().click();
      const dialog = tp.page.getByRole('dialog', { name: 'Reset two-factor for careful?' });
      await dialog.waitFor();
      await screenshot(tp.page, `otp-reset-confirm-${viewport.width}`);
      await dialog.getByRole('button', { name: 'Reset two-factor' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    const again = await suite.fresh();
    await loginThroughForm(again.page, 'careful@example.com', 'careful-password');
    await again.page.waitForURL('**/account');
    await expect.poll(() => again.page.getByTestId('otp-status').textContent()).toBe('Disabled');
  }, 300_000);
});

async function loginThroughForm(page: Page, email: string, password: string): Promise<void> {
  if (!page.url().includes('/auth/login')) await page.goto('/auth/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}
