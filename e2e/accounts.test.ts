import type { Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, readInPage, screenshot, useSessionIn, type TestPage } from './helpers/browser';
import { BrowserSuite } from './helpers/browser-suite';

const canRun = browserAvailable('account screens');
const ROOT = { username: 'root', email: 'root@example.com', password: 'correct-horse-battery' };

describe.runIf(canRun)('account screens in Chromium against the real panel', () => {
  let suite: BrowserSuite;
  let adminSession = '';
  let adminScopes: string[] = [];

  async function asAdmin(): Promise<TestPage> {
    const tp = await suite.fresh();
    await useSessionIn(tp, suite.panel.url, adminSession, adminScopes);
    await tp.page.goto('/server');
    await tp.page.getByTestId('sidebar').waitFor();
    return tp;
  }

  beforeAll(async () => {
    suite = await BrowserSuite.start({ registrationEnabled: true });
  });

  afterAll(() => suite?.close());

  it('creates the first administrator through the setup link, with client-side validation', async () => {
    const { page, context } = await suite.fresh();
    const path = new URL(suite.panel.setupUrl ?? '').pathname + new URL(suite.panel.setupUrl ?? '').search;
    await page.goto(path);
    await page.getByLabel('Username').fill('ad');
    await page.getByLabel('E-mail').fill('root@example.com');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('different');
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByText('username at least 3 characters, only alphanumerics, _ or -').waitFor();
    await page.getByText('password at least 8 characters').waitFor();
    await page.getByText('Passwords are not the same').waitFor();
    await screenshot(page, 'setup-validation');

    await page.getByLabel('Username').fill('root');
    await page.getByLabel('Password', { exact: true }).fill('correct-horse-battery');
    await page.getByLabel('Confirm password').fill('correct-horse-battery');
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.waitForURL('**/server');
    await page.getByTestId('sidebar').getByRole('link', { name: 'Settings' }).waitFor();
    expect(await readInPage(page, "localStorage.getItem('scopes')")).toContain('servers.admin');
    // Later tests reuse this session: login attempts per e-mail are rate limited (docs/security.md).
    const cookies = await context.cookies();
    adminSession = cookies.find((c) => c.name === 'hearth_session')?.value ?? '';
    adminScopes = JSON.parse((await readInPage(page, "localStorage.getItem('scopes')")) ?? '[]') as string[];
  });

  it('logs out, refuses a wrong password with the catalogue message, then logs in to Servers', async () => {
    const { page } = await suite.fresh();
    await loginThroughForm(page, ROOT.email, ROOT.password);
    await page.waitForURL('**/server');
    await page.getByTestId('logout').click();
    await page.waitForURL('**/auth/login');
    expect(await readInPage(page, "document.cookie.includes('hearth_session=')")).toBe('false');

    await loginThroughForm(page, ROOT.email, 'wrong-password!');
    await page.getByText('Invalid credentials').waitFor();
    expect(page.url()).toContain('/auth/login');
    await screenshot(page, 'login-invalid');

    await loginThroughForm(page, ROOT.email, ROOT.password);
    await page.waitForURL('**/server');
  });

  it('registers a new user, who lands on Account with only the Account entry', async () => {
    const { page } = await suite.fresh();
    await page.goto('/auth/register');
    await page.getByLabel('Username').fill('newbie');
    await page.getByLabel('E-mail').fill('newbie@example.com');
    await page.getByLabel('Password', { exact: true }).fill('newbie-password');
    await page.getByLabel('Confirm password').fill('newbie-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/account');
    const sidebar = page.getByTestId('sidebar');
    await sidebar.getByRole('link', { name: 'Account' }).waitFor();
    expect(await sidebar.getByRole('link').count()).toBe(1);
  });

  it('ends a revoked session with the timed-out message on the login page', async () => {
    const { page } = await suite.fresh();
    await loginThroughForm(page, ROOT.email, ROOT.password);
    await page.waitForURL('**/server');
    const token = await readInPage(page, 'document.cookie.match(/hearth_session=([^;]+)/)[1]');
    const res = await fetch(`${suite.panel.url}/auth/logout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.ok).toBe(true);
    // Any request carrying the revoked token logs out: the page's own background refresh may get there
    // before the click does, so either one may be what leads to the login page.
    const settings = page.getByTestId('sidebar').getByRole('link', { name: 'Settings' });
    const click = settings.click().then(
      () => 'clicked',
      (err: unknown) => err,
    );
    await Promise.race([page.waitForURL('**/auth/login'), click]);
    await page.waitForURL('**/auth/login');
    await page.getByTestId('session-timed-out').waitFor();
    expect(await page.getByTestId('session-timed-out').textContent()).toBe(
      'Your session timed out, please log in again',
    );
  });

  it('lets the admin change panel settings: company name and registration', async () => {
    const { page } = await asAdmin();
    await page.keyboard.press('g');
    await page.keyboard.press('c');
    await page.waitForURL('**/settings');
    await page.getByLabel('Company name').fill('Ember Hosting');
    await page.getByRole('switch', { name: 'Allow self-registration' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').waitFor();
    // The brand follows the refetched config: on a loaded machine that takes longer than expect.poll's 1 s default.
    await expect
      .poll(() => page.getByTestId('brand').textContent(), { timeout: 30_000 })
      .toBe('Ember Hosting');
    await screenshot(page, 'settings');
    const config = (await (await fetch(`${suite.panel.url}/api/config`)).json()) as {
      registrationEnabled: boolean;
    };
    expect(config.registrationEnabled).toBe(false);
  });

  it('lets the admin grant a permission, and the user then sees the new sidebar entry', async () => {
    const admin = await asAdmin();
    await admin.page.getByTestId('sidebar').getByRole('link', { name: 'Users' }).click();
    await admin.page.getByLabel('Search by username').fill('newb');
    await admin.page.getByRole('cell', { name: 'newbie', exact: true }).click();
    await admin.page.waitForURL(/\/user\/[^/]+$/);
    await admin.page.getByRole('switch', { name: 'View servers' }).click();
    await admin.page.getByRole('switch', { name: 'View templates' }).click();
    await admin.page.getByRole('button', { name: 'Save' }).click();
    await admin.page.getByText('User created or updated').waitFor();
    await screenshot(admin.page, 'user-edit');

    const user = await suite.fresh();
    await loginThroughForm(user.page, 'newbie@example.com', 'newbie-password');
    await user.page.waitForURL('**/server');
    const links = user.page.getByTestId('sidebar').getByRole('link');
    await expect.poll(() => links.allTextContents()).toEqual(['Accountga', 'Serversgs', 'Templatesgt']);
  });

  it('enables two-factor, then logs in only with a code computed from the secret', async () => {
    const { page } = await suite.fresh();
    await loginThroughForm(page, 'newbie@example.com', 'newbie-password');
    await page.waitForURL('**/server');
    await page.getByTestId('sidebar').getByRole('link', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Set up two-factor' }).click();
    const secret = (await page.getByTestId('otp-secret').textContent()) ?? '';
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    await page.getByTestId('otp-code').fill(totp.generate());
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.getByTestId('otp-status').textContent()).toBe('Enabled');
    await page.getByTestId('logout').click();
    await page.waitForURL('**/auth/login');

    await loginThroughForm(page, 'newbie@example.com', 'newbie-password');
    const input = page.getByTestId('otp-input');
    await input.waitFor();
    await screenshot(page, 'login-otp');
    // A wrong code is named as such, not as wrong credentials (the password already passed).
    await input.fill('000000');
    await input.press('Enter');
    await page.getByText('The two-factor code is wrong').waitFor();
    expect(await page.getByText('Invalid credentials').count()).toBe(0);
    // The code used for enrolment cannot be replayed: wait for the next 30 s window.
    await waitForNextTotpWindow();
    await input.fill(totp.generate());
    await input.press('Enter');
    await page.waitForURL('**/server');
  });

  it('creates an OAuth2 client, uses its credentials at /oauth2/token, then deletes it', async () => {
    const { page } = await asAdmin();
    await page.getByTestId('sidebar').getByRole('link', { name: 'Account' }).click();
    const card = page.getByTestId('oauth2-card');
    await card.getByRole('button', { name: 'Add client' }).click();
    await page.getByLabel('Name', { exact: true }).fill('ci-bot');
    await page.getByLabel('Description').fill('deploys');
    await page.getByLabel('Description').press('Enter');
    const clientId = (await page.getByTestId('client-id').textContent()) ?? '';
    const clientSecret = (await page.getByTestId('client-secret').textContent()) ?? '';
    await screenshot(page, 'oauth2-credentials');
    await page.getByRole('button', { name: 'Close' }).last().click();
    await card.getByText('ci-bot').waitFor();

    const token = await fetch(`${suite.panel.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
      }),
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const self = await fetch(`${suite.panel.url}/api/users`, {
      headers: { Authorization: `Bearer ${access_token}` },
    });
    expect(self.status).toBe(200);

    await card.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'ci-bot' });
    const del = dialog.getByRole('button', { name: 'Delete' });
    expect(await del.isDisabled()).toBe(true);
    await dialog.getByRole('switch').click();
    await del.click();
    await expect.poll(() => card.getByTestId('oauth2-client').count()).toBe(0);
  });
});

async function waitForNextTotpWindow(): Promise<void> {
  const msLeft = 30_000 - (Date.now() % 30_000);
  await new Promise((resolve) => setTimeout(resolve, msLeft + 500));
}

async function loginThroughForm(page: Page, email: string, password: string): Promise<void> {
  if (!page.url().includes('/auth/login')) await page.goto('/auth/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}
