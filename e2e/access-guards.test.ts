/**
 * Access in the browser for a limited user (docs/permissions.md § Web guards): a user with permissions on one
 * server but no panel flag finds Servers and lands there; admin pages show "No access" rather than an empty
 * form; a server that is not theirs says so instead of loading forever; a user with nothing lands on Account.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { browserAvailable, screenshot } from './helpers/browser';
import { BrowserSuite } from './helpers/browser-suite';
import { addNodeWithDaemon, panelApi, type NodeDaemon } from './helpers/daemon-node';
import { createFirstAdmin, type Account } from './helpers/panel';

const canRun = browserAvailable('access guards');
const PASSWORD = 'limited-password-1';

describe.runIf(canRun)('what a limited user sees in Chromium', () => {
  let suite: BrowserSuite;
  let admin: Account;
  let node: (NodeDaemon & { nodeId: string }) | undefined;
  let mine = '';
  let theirs = '';

  const call = <T>(method: string, path: string, body?: unknown) =>
    panelApi<T>(suite.panel, admin.session, method, path, body);

  async function newUser(username: string, panelFlags?: Record<string, boolean>): Promise<string> {
    const email = `${username}@example.com`;
    const { id } = await call<{ id: string }>('POST', '/api/users', { username, email, password: PASSWORD });
    if (panelFlags) await call('PUT', `/api/users/${id}/perms`, panelFlags);
    return email;
  }

  async function logIn(email: string): Promise<Page> {
    const { page } = await suite.fresh();
    await page.goto('/auth/login');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByTestId('sidebar').waitFor();
    return page;
  }

  // The links' names (their text also holds the shortcut hint).
  const sidebarLinks = async (page: Page) => {
    const links = await page.getByTestId('sidebar').getByRole('link').all();
    return Promise.all(links.map((link) => link.getAttribute('aria-label')));
  };

  beforeAll(async () => {
    suite = await BrowserSuite.start();
    admin = await createFirstAdmin(suite.panel);
    node = await addNodeWithDaemon(suite.panel, admin.session, 'node-a');
    const server = (name: string) => ({ ...fakeGameDefinition(), name, node: node?.nodeId, users: [] });
    mine = (await call<{ id: string }>('POST', '/api/servers', server('mine'))).id;
    theirs = (await call<{ id: string }>('POST', '/api/servers', server('theirs'))).id;
  });

  afterAll(() => suite?.close(async () => node?.daemon.close()));

  it('a user with permissions on one server sees Servers, lands there and lists only that server', async () => {
    const email = await newUser('player');
    await call('PUT', `/api/servers/${mine}/user/${email}`, { viewServerStats: true });
    const page = await logIn(email);
    await page.waitForURL('**/server');
    expect(await sidebarLinks(page)).toEqual(['Account', 'Servers']);
    const table = page.getByTestId('servers-table');
    await table.getByText('mine', { exact: true }).waitFor();
    expect(await table.getByText('theirs', { exact: true }).count()).toBe(0);
    await screenshot(page, 'access-servers-only-mine');
  });

  it('admin URLs show the no-access page to that user, not an empty form', async () => {
    const page = await logIn('player@example.com');
    for (const path of [
      '/settings',
      '/adduser',
      '/addtemplate',
      `/node/${node?.nodeId}`,
      '/user',
      '/addserver',
    ]) {
      await page.goto(path);
      await page.getByTestId('no-access').waitFor();
      expect(await page.getByRole('heading', { name: 'No access' }).count(), path).toBe(1);
      expect(await page.locator('form, input').count(), path).toBe(0);
    }
    await screenshot(page, 'access-no-access');
    await page.getByRole('link', { name: 'Go to my start page' }).click();
    await page.waitForURL('**/server');
  });

  it("a server that is not the user's says so instead of loading forever", async () => {
    const page = await logIn('player@example.com');
    await page.goto(`/server/${theirs}`);
    await page.locator('[data-testid="no-access"], :text("Page not found")').first().waitFor();
    expect(await page.getByTestId('server-page').count()).toBe(0);
    await page.goto(`/server/${mine}`);
    await page.getByTestId('server-page').waitFor();
  });

  it('a user with nothing lands on Account, without Servers, and /server says no access', async () => {
    const page = await logIn(await newUser('nobody'));
    await page.waitForURL('**/account');
    expect(await sidebarLinks(page)).toEqual(['Account']);
    await page.goto('/server');
    await page.getByTestId('no-access').waitFor();
  });

  it('a view-only template user sees templates but no Import, Add, Save or Delete', async () => {
    const { run, ...rest } = fakeGameDefinition();
    await call('PUT', '/api/templates/fake-game', {
      ...rest,
      run,
      supportedEnvironments: [{ type: 'standard' }],
    });
    const page = await logIn(await newUser('reader', { viewTemplates: true }));
    await page.goto('/template');
    await page.getByTestId('template-fake-game').waitFor();
    expect(await page.getByRole('button', { name: 'Import' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Add template' }).count()).toBe(0);
    await page.goto('/template/fake-game');
    await page.getByTestId('general').waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await page.goto('/addtemplate');
    await page.getByTestId('no-access').waitFor();
    // The administrator still has them (the check above is not vacuous).
    const adminPage = await suite.open(admin, '/template/fake-game');
    await adminPage.getByRole('button', { name: 'Save' }).waitFor();
    await adminPage.goto('/template');
    await adminPage.getByRole('link', { name: 'Add template' }).waitFor();
  });
});
