import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, readInPage, screenshot, useSessionIn } from './helpers/browser';
import { BrowserSuite } from './helpers/browser-suite';
import { createFirstAdmin, panelApi, type Account } from './helpers/panel';
import { startSmtpCapture, type SmtpCapture } from './helpers/smtp';

const canRun = browserAvailable('account e-mail screens');

describe.runIf(canRun)('invitations and password changes in Chromium, with mail over real SMTP', () => {
  let smtp: SmtpCapture;
  let suite: BrowserSuite;
  let admin: Account;

  const adminApi = (method: string, path: string, body: object) =>
    panelApi(suite.panel, admin.session, method, path, body);

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    suite = await BrowserSuite.start({
      companyName: 'Ember Hosting',
      email: { provider: 'smtp', host: smtp.host, from: 'panel@hearth.test' },
    });
    admin = await createFirstAdmin(suite.panel);
    // The panel listens on a free port, so the links in mails can point at it only once it runs.
    await adminApi('POST', '/api/settings', { 'panel.settings.masterUrl': suite.panel.url });
  });

  afterAll(async () => {
    await suite?.close();
    await smtp?.close();
  });

  it('invites a user from the Users page; the e-mailed link creates the account once', async () => {
    const tp = await suite.fresh();
    await useSessionIn(tp, suite.panel.url, admin.session, admin.scopes);
    await tp.page.goto('/user');
    await tp.page.getByRole('button', { name: 'Invite' }).click();
    const dialog = tp.page.getByRole('dialog', { name: 'Invite a user' });
    await dialog.getByLabel('E-mail').fill('Guest@Example.com');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    // The dialog says the mail went out and offers the link (docs/security.md § Invitations).
    await dialog
      .getByTestId('invitation-mail')
      .getByText('The invitation was e-mailed to guest@example.com.')
      .waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();

    const mail = await smtp.waitFor('guest@example.com', 'You are invited to Ember Hosting');
    expect(mail.from).toBe('panel@hearth.test');
    const link = new RegExp(`${escapeRegExp(suite.panel.url)}/auth/invite\\?token=[A-Za-z0-9_%.~-]+`).exec(
      mail.body,
    )?.[0];
    expect(link, 'invite link in the mail').toBeDefined();

    const guest = await suite.fresh();
    await guest.page.goto(link ?? '');
    await guest.page.getByRole('heading', { name: 'Accept invitation' }).waitFor();
    await guest.page.getByLabel('Username').fill('guest');
    await guest.page.getByLabel('Password', { exact: true }).fill('guest-password');
    await guest.page.getByLabel('Confirm password').fill('guest-password');
    await screenshot(guest.page, 'invite-accept');
    await guest.page.getByRole('button', { name: 'Create account' }).click();
    // Invited users start without permissions, so they land on Account with only that entry.
    await guest.page.waitForURL('**/account');
    const sidebar = guest.page.getByTestId('sidebar');
    await expect.poll(() => sidebar.getByRole('link').allTextContents()).toEqual(['Accountga']);

    await logout(guest.page);
    await loginThroughForm(guest.page, 'guest@example.com', 'guest-password');
    await guest.page.waitForURL('**/account');
    expect(await readInPage(guest.page, "document.cookie.includes('hearth_session=')")).toBe('true');

    const again = await suite.fresh();
    await again.page.goto(link ?? '');
    await again.page.getByLabel('Username').fill('guest2');
    await again.page.getByLabel('Password', { exact: true }).fill('guest-password');
    await again.page.getByLabel('Confirm password').fill('guest-password');
    await again.page.getByRole('button', { name: 'Create account' }).click();
    await again.page.getByText('Your invite link appears to be invalid').waitFor();
    await screenshot(again.page, 'invite-used-link');
    expect(again.page.url()).toContain('/auth/invite');
    const users = await fetch(`${suite.panel.url}/api/users?username=guest2`, {
      headers: { Authorization: `Bearer ${admin.session}` },
    });
    expect(((await users.json()) as { paging: { total: number } }).paging.total).toBe(0);
  });

  it('changes the password on the Account page; only the new password logs in afterwards', async () => {
    await adminApi('POST', '/api/users', {
      username: 'walter',
      email: 'walter@example.com',
      password: 'old-password-1',
    });
    const { page } = await suite.fresh();
    await loginThroughForm(page, 'walter@example.com', 'old-password-1');
    await page.waitForURL('**/account');
    const card = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Change password' }) });
    await fillPasswordCard(card, 'old-password-1', 'new-password-2', 'new-password-3');
    await card.getByText('Passwords are not the same').waitFor();
    await fillPasswordCard(card, 'old-password-1', 'short', 'short');
    await card.getByText('password at least 8 characters').waitFor();
    await screenshot(page, 'password-validation');

    await fillPasswordCard(card, 'old-password-1', 'new-password-2', 'new-password-2');
    await page.getByText('Password changed').waitFor();
    await screenshot(page, 'password-changed');
    const mail = await smtp.waitFor('walter@example.com', 'Your password was changed');
    expect(mail.body).toContain('The password of your account walter was changed');

    await logout(page);
    await loginThroughForm(page, 'walter@example.com', 'old-password-1');
    await page.getByText('Invalid credentials').waitFor();
    expect(page.url()).toContain('/auth/login');
    await loginThroughForm(page, 'walter@example.com', 'new-password-2');
    await page.waitForURL('**/account');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function fillPasswordCard(
  card: Locator,
  current: string,
  next: string,
  confirm: string,
): Promise<void> {
  await card.getByLabel('Current password').fill(current);
  await card.getByLabel('New password').fill(next);
  await card.getByLabel('Confirm password').fill(confirm);
  await card.getByRole('button', { name: 'Change password' }).click();
}

async function logout(page: Page): Promise<void> {
  await page.getByTestId('logout').click();
  await page.waitForURL('**/auth/login');
}

async function loginThroughForm(page: Page, email: string, password: string): Promise<void> {
  if (!page.url().includes('/auth/login')) await page.goto('/auth/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}
