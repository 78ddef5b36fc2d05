/**
 * Issue 16, items 15 and 8, in Chromium against a real panel and daemon:
 * - a server never installed offers a green Install in Start's place (docs/daemon.md § Installed mark); after
 *   the install, Start is back; a user who may start but not install sees Start disabled;
 * - the Settings tab refuses a port of 99999999 in the form (the variable's own range), says under each field
 *   whether a change needs a reinstall or a restart (read from the definition), and says it again when saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { browserAvailable, launchBrowser, openSignedIn } from './helpers/browser';
import {
  panelApi,
  signInServerViewer,
  startPanelWithDaemon,
  type PanelWithDaemon,
} from './helpers/daemon-node';
import { statusIs } from './helpers/server-ui';

const run = browserAvailable('server install and variables') ? describe : describe.skip;

run('install before the first start; variable ranges and effects', () => {
  let live: PanelWithDaemon;
  let browser: Browser;

  beforeAll(async () => {
    live = await startPanelWithDaemon('install-vars-node');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
  });

  /** A server created through the panel and not installed. */
  async function createUninstalled(name: string, definition: object = fakeGameDefinition()): Promise<string> {
    const body = { ...definition, name, node: live.nodeId, users: [] };
    const { id } = await panelApi<{ id: string }>(
      live.panel,
      live.admin.session,
      'POST',
      '/api/servers',
      body,
    );
    return id;
  }

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`a new server offers Install, not Start, until it is installed (${viewport.width}px)`, async () => {
      const id = await createUninstalled(`fresh ${viewport.width}`);
      const tp = await openSignedIn(browser, live.panel.url, live.admin, `/server/${id}`);
      await tp.page.setViewportSize(viewport);
      await statusIs(tp.page, 'offline');
      const controls = tp.page.getByTestId('server-controls');
      const installFirst = controls.getByTestId('install-first');
      await installFirst.waitFor();
      expect(await controls.getByRole('button', { name: 'Start', exact: true }).count()).toBe(0);
      await installFirst.click();
      await controls.getByRole('button', { name: 'Start', exact: true }).waitFor({ timeout: 60_000 });
      expect(await installFirst.count()).toBe(0);
      expect(tp.pageErrors).toEqual([]);
      await tp.context.close();
    });
  }

  it('a user who may start but not install sees Start disabled on a server never installed', async () => {
    const id = await createUninstalled('viewer fresh');
    const viewer = await signInServerViewer(live, id, { startServer: true, viewServerConsole: true });
    const tp = await openSignedIn(browser, live.panel.url, viewer, `/server/${id}`);
    const start = tp.page.getByTestId('start-not-installed');
    await start.waitFor({ timeout: 60_000 });
    expect(await start.isDisabled()).toBe(true);
    expect(await tp.page.getByTestId('install-first').count()).toBe(0);
    await tp.context.close();
  });

  it('Settings refuses an out-of-range port in the form and names when each change takes effect', async () => {
    const base = fakeGameDefinition();
    const definition = {
      ...base,
      data: {
        port: { type: 'integer', value: 30000, min: 1, max: 65535, display: 'Port', userEdit: true },
        flags: { type: 'string', value: '', display: 'Extra flags', userEdit: true, required: false },
      },
      install: [{ type: 'writefile', target: 'server.cfg', text: 'port=${port}\n' }],
    };
    const id = await createUninstalled('settings one', definition);
    const tp = await openSignedIn(browser, live.panel.url, live.admin, `/server/${id}?tab=settings`);
    const { page } = tp;
    const tab = page.getByTestId('settings-tab');
    await tab.waitFor();
    await expect
      .poll(() => tab.getByTestId('variable-effect-port').textContent())
      .toBe('Takes effect after a reinstall');
    expect(await tab.getByTestId('variable-effect-flags').textContent()).toBe('Takes effect after a restart');

    const port = tab.getByRole('textbox', { name: 'Port' });
    await port.fill('99999999');
    await port.blur();
    await tab.getByRole('button', { name: 'Save' }).click();
    await tab.getByText('Enter a whole number from 1 to 65535').waitFor();
    // Not clamped and not sent: the daemon still holds 30000.
    expect(await port.inputValue()).toBe('99999999');
    const stored = await panelApi<{ data: { port: { value: number } } }>(
      live.panel,
      live.admin.session,
      'GET',
      `/proxy/daemon/server/${id}/data`,
    );
    expect(stored.data.port.value).toBe(30000);

    await port.fill('30001');
    await tab.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved. Reinstall the server for the change to take effect.').waitFor();
    await expect
      .poll(async () => {
        const now = await panelApi<{ data: { port: { value: number } } }>(
          live.panel,
          live.admin.session,
          'GET',
          `/proxy/daemon/server/${id}/data`,
        );
        return now.data.port.value;
      })
      .toBe(30001);
    expect(tp.pageErrors).toEqual([]);
    await tp.context.close();
  });
});
