/**
 * The server list and the server page show what players connect to (issue 16 item 19): a template's `ip`
 * variable is usually the bind address 0.0.0.0, so the screens show the node's public host with the port in its
 * place, while the API's `address` keeps SPEC's rule. In Chromium at 1440×900 (list and page) and 390×844 (page;
 * the list's address column gives way on phones).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { browserAvailable, launchBrowser, openSignedIn } from './helpers/browser';
import { panelApi, startPanelWithDaemon, type PanelWithDaemon } from './helpers/daemon-node';

const canRun = browserAvailable('server address');
const PUBLIC_HOST = 'play.example.test';
// A loaded machine may take long for the first page of a fresh panel.
const LONG = { timeout: 90_000 };

describe.runIf(canRun)('server address on screen', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let id = '';

  beforeAll(async () => {
    live = await startPanelWithDaemon('address-node');
    const { panel, admin } = live;
    await panelApi(panel, admin.session, 'PUT', `/api/nodes/${live.nodeId}`, { publicHost: PUBLIC_HOST });
    const definition = fakeGameDefinition();
    const data = {
      ...definition.data,
      ip: { type: 'string', value: '0.0.0.0', display: 'Bind address', userEdit: false },
      port: { type: 'integer', value: 30000, display: 'Port', userEdit: true },
    };
    const body = { ...definition, data, name: 'Bound everywhere', node: live.nodeId, users: [] };
    ({ id } = await panelApi<{ id: string }>(panel, admin.session, 'POST', '/api/servers', body));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
  });

  it("keeps SPEC's address in the API", async () => {
    const path = `/api/servers/${id}`;
    const detail = await panelApi<{ server: { address: string } }>(
      live.panel,
      live.admin.session,
      'GET',
      path,
    );
    expect(detail.server.address).toBe('0.0.0.0:30000');
  });

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`shows ${PUBLIC_HOST}:30000, not the bind address (${viewport.width}px)`, async () => {
      const tp = await openSignedIn(browser, live.panel.url, live.admin);
      const { page } = tp;
      await page.setViewportSize(viewport);
      if (viewport.width >= 1000) {
        await page.goto('/server');
        const cell = page.getByTestId(`address-${id}`);
        await cell.waitFor(LONG);
        expect(await cell.textContent()).toBe(`${PUBLIC_HOST}:30000`);
      }
      await page.goto(`/server/${id}`);
      const address = page.getByTestId('server-address');
      await address.waitFor(LONG);
      expect(await address.textContent()).toBe(`${PUBLIC_HOST}:30000`);
      expect(await page.locator('body').innerText()).not.toContain('0.0.0.0');
      expect(tp.pageErrors).toEqual([]);
      await tp.context.close();
    });
  }
});
