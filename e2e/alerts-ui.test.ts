/**
 * The Alerts screens in Chromium against a real panel and daemon (docs/alerts.md § Screens). An administrator, at
 * 1440×900, creates a signed webhook rule to a real receiver in its own process (apps/panel/test/alerts/
 * receiver.mjs verifies the HMAC and the timestamp) and presses Send test: the row says delivered and the receiver
 * got a valid signature; a too short secret is refused under its field; the rule is edited (a crash loop, a
 * receiver answering 500, a generated secret shown once), the failed test and its attempts show in the delivery
 * log, then it is disabled and deleted. At 390×844, a user holding manageServerAlerts on one server has the
 * server's Alerts tab with only that server's rules, no scope and no node conditions, sees a loopback URL refused
 * under the URL field, and adds a rule; a user without the flag has no tab and "No access" for its URL and for
 * the Alerts page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { AlertEvent, AlertRule, AlertRuleCreated, AlertRuleList } from '@hearth/contract';
import { startReceiver, type Receiver } from '../apps/panel/test/alerts/receiver-process';
import { browserAvailable, launchBrowser, openSignedIn, screenshot } from './helpers/browser';
import {
  createFakeGameServer,
  panelApi,
  startPanelWithDaemon,
  type PanelWithDaemon,
} from './helpers/daemon-node';

const run = browserAvailable('alerts ui') ? describe : describe.skip;
const SECRET = 'e2e-alerts-ui-secret-0123456789';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
/** The first load of a page fetches the app's chunks: slow on a loaded machine (a bound, not a check). */
const FIRST_LOAD = 120_000;

run('alerts screens', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let receiver: Receiver;
  let alpha = '';
  let beta = '';
  const pageErrors: string[][] = [];

  const api = <T>(method: string, path: string, body?: unknown) =>
    panelApi<T>(live.panel, live.admin.session, method, path, body);

  async function open(who: { session: string; scopes: string[] }, path: string, size = DESKTOP) {
    const tp = await openSignedIn(browser, live.panel.url, who, path);
    pageErrors.push(tp.pageErrors);
    await tp.page.setViewportSize(size);
    return tp.page;
  }

  /** A new user holding `permissions` on `serverId` only, signed in. */
  async function signIn(username: string, serverId: string, permissions: Record<string, boolean>) {
    const user = { username, email: `${username}@example.com`, password: `${username}-password-1` };
    await api('POST', '/api/users', user);
    await api('PUT', `/api/servers/${serverId}/user/${user.email}`, permissions);
    const login = await fetch(`${live.panel.url}/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    return (await login.json()) as { session: string; scopes: string[] };
  }

  /** Nothing wider than the window (a phone must not scroll sideways). */
  async function fitsWidth(page: Page, width: number) {
    const scrollWidth = await page.evaluate('document.documentElement.scrollWidth');
    expect(scrollWidth).toBeLessThanOrEqual(width);
  }

  const rules = async () => (await api<AlertRuleList>('GET', '/api/alerts')).rules;

  beforeAll(async () => {
    live = await startPanelWithDaemon('alerts-ui-node');
    alpha = await createFakeGameServer(live, 'alpha');
    beta = await createFakeGameServer(live, 'beta');
    receiver = await startReceiver(SECRET);
    // The receiver listens on loopback: an administrator's global rules may reach it with this setting.
    await api('PUT', '/api/settings/panel.alerts.allowPrivateTargets', { value: true });
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    receiver?.stop();
    await browser?.close();
    await live?.stop();
  });

  it('an administrator creates a signed webhook rule and Send test reaches the receiver', async () => {
    const page = await open(live.admin, '/alerts');
    await page.getByRole('heading', { name: 'Alerts', level: 2 }).waitFor({ timeout: FIRST_LOAD });
    await page.getByText('No alert rules yet.').waitFor();
    await page.getByTestId('alert-add').click();
    const dialog = page.getByTestId('alert-dialog');
    await dialog.getByTestId('alert-name').fill('crash hook');
    await dialog.getByTestId('alert-url').fill(`${receiver.url}/ok`);
    await dialog.getByTestId('alert-secret-mode').click();
    await page.getByRole('option', { name: 'Type my own' }).click();
    // Too short: the panel's refusal shows under the secret, nothing is saved.
    await dialog.getByTestId('alert-secret').fill('short');
    await dialog.getByTestId('alert-save').click();
    await dialog.getByText('channel.secret must be at least 16 characters long').waitFor();
    expect(await dialog.getByTestId('alert-secret').getAttribute('aria-invalid')).toBe('true');
    expect(await rules()).toEqual([]);
    await dialog.getByTestId('alert-secret').fill(SECRET);
    await screenshot(page, 'alerts-dialog-1440');
    await dialog.getByTestId('alert-save').click();
    await dialog.waitFor({ state: 'detached' });
    // A typed secret is the admin's own: no shown-once dialog for it.
    expect(await page.getByTestId('alert-secret-once').count()).toBe(0);

    const row = page.getByTestId('alert-rule-crash hook');
    await row.getByText('When a server crashes').waitFor();
    await row.getByText('Every server').waitFor();
    await row.getByText(`Webhook to ${new URL(receiver.url).host} (JSON, signed)`).waitFor();
    await row.getByText('Nothing sent yet').waitFor();

    await row.getByTestId('alert-test').click();
    const result = row.getByTestId('alert-test-result');
    await expect.poll(() => result.getAttribute('data-status'), { timeout: 60_000 }).toBe('delivered');
    expect(await result.textContent()).toBe('Test alert delivered');
    await row.getByTestId('alert-last').getByText('Delivered').waitFor();
    const got = receiver.received.filter((r) => r.path === '/ok');
    expect(got).toHaveLength(1);
    expect(got[0]?.valid).toBe(true);
    const event = JSON.parse(got[0]?.body ?? '{}') as AlertEvent;
    expect(event).toMatchObject({ type: 'test', rule: { name: 'crash hook' } });

    await row.getByTestId('alert-log-open').click();
    const log = page.getByTestId('alert-log');
    const entry = log.getByTestId('alert-log-row');
    await entry.first().waitFor();
    expect(await entry.count()).toBe(1);
    expect(await entry.first().locator('td').allTextContents()).toEqual([
      expect.any(String),
      'Test alert',
      'Delivered',
      '1',
      '',
    ]);
    await screenshot(page, 'alerts-log-1440');
    await page.keyboard.press('Escape');
    await log.waitFor({ state: 'detached' });
    await screenshot(page, 'alerts-page-1440');
  });

  it('edits the rule, shows a failed test in the log, disables and deletes it', async () => {
    const page = await open(live.admin, '/alerts');
    const row = page.getByTestId('alert-rule-crash hook');
    await row.getByTestId('alert-edit').click({ timeout: FIRST_LOAD });
    const dialog = page.getByTestId('alert-dialog');
    // Node conditions are offered for a global rule, not once a server is the scope.
    await dialog.getByTestId('alert-condition').click();
    await page.getByRole('option', { name: 'Node went offline' }).waitFor();
    await page.getByRole('option', { name: 'Crash loop' }).click();
    await dialog.getByTestId('alert-count').fill('5');
    await dialog.getByTestId('alert-minutes').fill('10');
    await dialog.getByText('From 2 to 100').waitFor();
    await dialog.getByTestId('alert-name').fill('loop hook');
    await dialog.getByTestId('alert-url').fill(`${receiver.url}/fail`);
    await dialog.getByTestId('alert-secret-mode').click();
    await page.getByRole('option', { name: 'Generate a new one' }).click();
    await dialog.getByTestId('alert-save').click();
    // The new secret is shown once, to copy.
    const secret = (await page.getByTestId('alert-secret-once').textContent({ timeout: 30_000 })) ?? '';
    expect(secret).toMatch(/^[\w-]{43}$/);
    await page.getByRole('button', { name: 'Close' }).click();
    const edited = page.getByTestId('alert-rule-loop hook');
    await edited.getByText('When a server crashes 5 times within 10 min').waitFor();
    const [stored] = await rules();
    expect(stored).toMatchObject({
      name: 'loop hook',
      condition: { type: 'crashLoop', count: 5, minutes: 10 },
      channel: { kind: 'webhook', url: `${receiver.url}/fail`, format: 'json', hasSecret: true },
    });

    // A receiver answering 500: retried with backoff (1+2+4+8 s), then failed with the HTTP status.
    await edited.getByTestId('alert-test').click();
    const result = edited.getByTestId('alert-test-result');
    await expect.poll(() => result.getAttribute('data-status'), { timeout: 120_000 }).toBe('failed');
    expect(await result.textContent()).toMatch(/^Test alert failed: .*500/);
    const failed = receiver.received.filter((r) => r.path === '/fail');
    expect(failed.length).toBe(5);
    // Signed with the new secret, not the one the receiver knows.
    expect(failed.every((r) => !r.valid)).toBe(true);
    await edited.getByTestId('alert-log-open').click();
    const entries = page.getByTestId('alert-log').getByTestId('alert-log-row');
    await entries.nth(1).waitFor();
    const newest = await entries.first().locator('td').allTextContents();
    expect(newest.slice(1, 4)).toEqual(['Test alert', 'Failed', '5']);
    expect(newest[4]).toMatch(/500/);
    await page.keyboard.press('Escape');

    await edited.getByRole('switch', { name: 'Enabled' }).click({ force: true });
    await expect.poll(async () => (await rules())[0]?.enabled).toBe(false);
    expect(await edited.getByRole('switch', { name: 'Enabled' }).isChecked()).toBe(false);

    await edited.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Delete the rule loop hook?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await edited.waitFor({ state: 'detached' });
    await page.getByText('No alert rules yet.').waitFor();
    expect(await rules()).toEqual([]);
  });

  it('the Alerts page and its dialog fit a phone', async () => {
    const page = await open(live.admin, '/alerts', PHONE);
    await page.getByTestId('alert-add').click({ timeout: FIRST_LOAD });
    await page.getByTestId('alert-dialog').getByTestId('alert-name').waitFor();
    await fitsWidth(page, PHONE.width);
    await screenshot(page, 'alerts-dialog-390');
  });

  it("a user with manageServerAlerts on one server manages only that server's rules", async () => {
    const hook = (path: string) => ({
      kind: 'webhook',
      url: `https://hooks.example.com/${path}`,
      format: 'slack',
    });
    const make = (name: string, serverId: string | null) =>
      api<AlertRuleCreated>('POST', '/api/alerts', {
        name,
        serverId,
        condition: { type: 'crash' },
        channel: hook(name.replace(/ /g, '-')),
      });
    await make('every server rule', null);
    await make('alpha rule', alpha);
    await make('beta rule', beta);
    const keeper = await signIn('keeper', alpha, { manageServerAlerts: true });

    const page = await open(keeper, `/server/${alpha}`, PHONE);
    const tab = page.getByTestId('server-tabs').locator('[data-tab="alerts"]');
    await tab.click({ timeout: FIRST_LOAD });
    const list = page.getByTestId('alert-rules');
    await list.getByTestId('alert-rule-alpha rule').waitFor();
    expect(await list.getByText('every server rule').count()).toBe(0);
    expect(await list.getByText('beta rule').count()).toBe(0);

    await list.getByTestId('alert-add').click();
    const dialog = page.getByTestId('alert-dialog');
    // No scope to pick, and no node condition on a server's rule.
    expect(await dialog.getByTestId('alert-scope').count()).toBe(0);
    await dialog.getByTestId('alert-condition').click();
    await page.getByRole('option', { name: 'Backup failed' }).waitFor();
    expect(await page.getByRole('option', { name: 'Node went offline' }).count()).toBe(0);
    await page.getByRole('option', { name: 'Backup failed' }).click();
    await dialog.getByTestId('alert-name').fill('alpha backups');
    // A server's rules never reach a private address: the refusal shows under the URL.
    await dialog.getByTestId('alert-url').fill('http://127.0.0.1:9/hook');
    await dialog.getByTestId('alert-save').click();
    await dialog.getByText(/^The alert target http:\/\/127\.0\.0\.1:9\/hook is refused/).waitFor();
    expect(await dialog.getByTestId('alert-url').getAttribute('aria-invalid')).toBe('true');
    await fitsWidth(page, PHONE.width);
    await screenshot(page, 'alerts-tab-refused-390');
    await dialog.getByText('Send an e-mail').click();
    await dialog.getByTestId('alert-to').fill('ops@example.com');
    await dialog.getByTestId('alert-save').click();
    await dialog.waitFor({ state: 'detached' });
    await list.getByTestId('alert-rule-alpha backups').getByText('E-mail to ops@example.com').waitFor();
    await list.getByTestId('alert-rule-alpha backups').getByText('When a backup fails').waitFor();
    await fitsWidth(page, PHONE.width);
    await screenshot(page, 'alerts-tab-390');
    const mine = await panelApi<{ rules: AlertRule[] }>(
      live.panel,
      keeper.session,
      'GET',
      `/api/servers/${alpha}/alerts`,
    );
    expect(mine.rules.map((r) => r.name).sort()).toEqual(['alpha backups', 'alpha rule']);
    expect(mine.rules.every((r) => r.serverId === alpha)).toBe(true);

    // The panel-wide page is for administrators.
    await page.goto('/alerts');
    await page.getByTestId('no-access').waitFor();
    // At desktop width too, the tab lists the server's rules.
    await page.setViewportSize(DESKTOP);
    await page.goto(`/server/${alpha}?tab=alerts`);
    await page.getByTestId('alert-rule-alpha backups').waitFor({ timeout: FIRST_LOAD });
    await screenshot(page, 'alerts-tab-1440');
  });

  it('a user without the flag has no Alerts tab and no access through its URL', async () => {
    const player = await signIn('player', alpha, { viewServerConsole: true });
    for (const size of [DESKTOP, PHONE]) {
      const page = await open(player, `/server/${alpha}`, size);
      await page.getByTestId('server-tabs').locator('[data-tab="console"]').waitFor({ timeout: FIRST_LOAD });
      expect(await page.getByTestId('server-tabs').locator('[data-tab="alerts"]').count()).toBe(0);
      await page.goto(`/server/${alpha}?tab=alerts`);
      await page.getByTestId('no-access').waitFor({ timeout: FIRST_LOAD });
      expect(await page.getByTestId('alert-rules').count()).toBe(0);
      await page.goto('/alerts');
      await page.getByTestId('no-access').waitFor();
    }
    for (const errors of pageErrors) expect(errors).toEqual([]);
  });
});
