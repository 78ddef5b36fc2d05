/**
 * Power controls and deletion on the server page in Chromium against a real panel and daemon (docs/daemon.md § Server states):
 * Stop and Kill are disabled while the server is offline; Install on a running server asks first and says what
 * it overwrites (cancel leaves it running); deleting a server shows one success message and nothing asks the
 * panel about the deleted server afterwards (no "Server not found" toasts).
 */
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchBrowser, openSignedIn } from './helpers/browser';
import {
  createFakeGameServer,
  panelApi,
  startPanelWithDaemon,
  type PanelWithDaemon,
} from './helpers/daemon-node';
import { statusIs } from './helpers/server-ui';

const run = browserAvailable('server power and delete') ? describe : describe.skip;

run('server power controls and delete', () => {
  let live: PanelWithDaemon;
  let browser: Browser;

  beforeAll(async () => {
    live = await startPanelWithDaemon('power-node');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
  });

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`offline: Stop and Kill are disabled (${viewport.width}px)`, async () => {
      const id = await createFakeGameServer(live, `offline ${viewport.width}`);
      const tp = await openSignedIn(browser, live.panel.url, live.admin, `/server/${id}`);
      await tp.page.setViewportSize(viewport);
      await statusIs(tp.page, 'offline');
      const controls = tp.page.getByTestId('server-controls');
      await expect.poll(() => controls.getByRole('button', { name: 'Stop' }).isDisabled()).toBe(true);
      expect(await controls.getByRole('button', { name: 'Kill' }).isDisabled()).toBe(true);
      expect(await controls.getByRole('button', { name: 'Start' }).isDisabled()).toBe(false);
      expect(tp.pageErrors).toEqual([]);
      await tp.context.close();
    });
  }

  it('Install on a running server asks first, says what it overwrites; cancel keeps it running', async () => {
    const id = await createFakeGameServer(live, 'running one', { start: true });
    const tp = await openSignedIn(browser, live.panel.url, live.admin, `/server/${id}`);
    const { page } = tp;
    await statusIs(page, 'online');
    await page.getByTestId('server-controls').getByRole('button', { name: 'Install' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/stops the server/i).waitFor();
    await dialog
      .getByText(/overwrit/i)
      .first()
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    const status = await panelApi<{ running: boolean; installing: boolean }>(
      live.panel,
      live.admin.session,
      'GET',
      `/proxy/daemon/server/${id}/status`,
    );
    expect(status).toMatchObject({ running: true, installing: false });
    // Confirmed, it installs (the daemon stops the server first).
    await page.getByTestId('server-controls').getByRole('button', { name: 'Install' }).click();
    await dialog.getByRole('button', { name: 'Stop and install' }).click();
    await statusIs(page, 'offline');
    expect(tp.pageErrors).toEqual([]);
    await tp.context.close();
  });

  it('deleting shows one success message and asks nothing more about the deleted server', async () => {
    const id = await createFakeGameServer(live, 'doomed one');
    const tp = await openSignedIn(browser, live.panel.url, live.admin, `/server/${id}?tab=admin`);
    const { page } = tp;
    let deletedAt = 0;
    const after: string[] = [];
    page.on('request', (req: Request) => {
      if (deletedAt && req.url().includes(id) && req.method() !== 'DELETE') after.push(req.url());
    });
    page.on('response', (res) => {
      if (res.request().method() === 'DELETE' && res.url().includes(id)) deletedAt = Date.now();
    });
    await page.getByTestId('delete-server').getByRole('button', { name: 'Delete server' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete server' }).click();
    await page.waitForURL(/\/server$/);
    await page.getByTestId('servers-table').waitFor();
    await page.waitForLoadState('networkidle');
    const toasts = page.locator('.mantine-Notification-root');
    expect(await toasts.count()).toBe(1);
    expect(await page.getByText(/not found/i).count()).toBe(0);
    // Only the live link's one look (status and unseen output, over HTTP once the daemon closed the socket)
    // may follow; it learns the server is gone and ends quietly. No query about it is fetched again.
    expect(
      after.filter((url) => !/\/proxy\/daemon\/server\/[^/]+\/(status|console\?time=\d+)$/.test(url)),
    ).toEqual([]);
    expect(after.length).toBeLessThanOrEqual(2);
    expect(tp.pageErrors).toEqual([]);
    await tp.context.close();
  });
});
