import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, readInPage, screenshot, useSessionIn } from './helpers/browser';
import { BrowserSuite } from './helpers/browser-suite';
import { createFirstAdmin, type Account } from './helpers/panel';

const canRun = browserAvailable('web shell');

describe.runIf(canRun)('web shell in Chromium against the real panel', () => {
  let suite: BrowserSuite;
  let admin: Account;

  beforeAll(async () => {
    suite = await BrowserSuite.start({ companyName: 'Acme Games' });
    admin = await createFirstAdmin(suite.panel);
  });

  afterAll(() => suite?.close());

  it('sends an unauthenticated visitor from /server to the login page', async () => {
    const { page } = await suite.fresh();
    await page.goto('/server');
    await page.waitForURL('**/auth/login');
    await expect.poll(() => page.getByTestId('brand').textContent()).toBe('Acme Games');
    expect(await page.getByTestId('sidebar').count()).toBe(0);
  });

  it('redirects / to /server and on to login', async () => {
    const { page } = await suite.fresh();
    const seen: string[] = [];
    page.on('framenavigated', (frame) => seen.push(new URL(frame.url()).pathname));
    await page.goto('/');
    await page.waitForURL('**/auth/login');
    expect(page.url()).toBe(`${suite.panel.url}/auth/login`);
  });

  it('redirects unknown paths to the 404 page without sidebar or footer', async () => {
    const { page } = await suite.fresh();
    await page.goto('/nope/deeper');
    await page.waitForURL('**/errors/404');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    expect(await page.getByTestId('footer').count()).toBe(0);
  });

  it('serves the public routes on a direct load (history-mode fallback)', async () => {
    const { page } = await suite.fresh();
    for (const path of ['/auth/login', '/auth/register', '/auth/invite', '/errors/404']) {
      const res = await page.goto(path);
      expect(res?.headers()['content-type'], path).toContain('text/html');
      await page.getByTestId('brand').waitFor();
    }
  });

  it('opens the language overlay with one button per locale and remembers the choice', async () => {
    const { page } = await suite.fresh();
    await page.goto('/server');
    await page.waitForURL('**/auth/login');
    await page.getByRole('button', { name: 'Language' }).click();
    const list = page.getByTestId('locale-list');
    await list.waitFor();
    expect(await list.getByRole('button').count()).toBe(35);
    await expect.poll(() => list.getByRole('button', { name: 'Deutsch' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Help translate Hearth' }).count()).toBe(1);
    await list.getByRole('button', { name: 'Deutsch' }).click();
    expect(await readInPage(page, "localStorage.getItem('locale')")).toBe('de_DE');
    // The language's chunk loads before <html lang> changes.
    await expect.poll(() => readInPage(page, 'document.documentElement.lang')).toBe('de-DE');
  });

  it('has a theme menu with a dark-mode switch and the theme list, kept across a reload', async () => {
    const { page } = await suite.fresh();
    await page.goto('/server');
    const menuButton = page.getByRole('button', { name: 'Theme' });
    await menuButton.waitFor();
    const scheme = () =>
      readInPage(page, "document.documentElement.getAttribute('data-mantine-color-scheme')");
    const primary = () =>
      readInPage(
        page,
        "getComputedStyle(document.documentElement).getPropertyValue('--mantine-primary-color-filled')",
      );
    expect(await scheme()).toBe('light');
    await expect.poll(primary).toBe('#c2410c'); // hearth.tar's light primary
    await menuButton.click();
    expect(await page.getByRole('radio').count()).toBe(2);
    await page.getByRole('switch', { name: 'Dark mode' }).click();
    await expect.poll(scheme).toBe('dark');
    await page.getByRole('radio', { name: 'midnight' }).click();
    await expect.poll(primary).toBe('#818cf8'); // midnight.tar's dark primary
    expect(await readInPage(page, "localStorage.getItem('dark')")).toBe('true');
    expect(await readInPage(page, "localStorage.getItem('theme')")).toBe('midnight');
    await screenshot(page, 'shell-theme-menu');
    await page.goto('/server');
    await menuButton.waitFor();
    await expect.poll(primary).toBe('#818cf8');
    expect(await scheme()).toBe('dark');
  });

  it('shows the sidebar for an admin and navigates with g shortcuts', async () => {
    const tp = await suite.fresh();
    await useSessionIn(tp, suite.panel.url, admin.session, admin.scopes);
    const { page } = tp;
    await page.goto('/server');
    const sidebar = page.getByTestId('sidebar');
    await sidebar.waitFor();
    for (const label of ['Account', 'Servers', 'Nodes', 'Users', 'Templates', 'Settings']) {
      expect(await sidebar.getByRole('link', { name: label }).count(), label).toBe(1);
    }
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.waitForURL('**/account');
    await page.keyboard.press('g');
    await page.keyboard.press('c');
    await page.waitForURL('**/settings');
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    await page.waitForURL('**/server');
    await page.getByTestId('footer').waitFor();
    await screenshot(page, 'shell-admin-servers');
  });
});
