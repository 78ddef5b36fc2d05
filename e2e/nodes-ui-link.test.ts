/**
 * The node's link mode in Chromium (docs/operations.md § Remote node, outbound mode), on a desktop (1440 px) and
 * a phone (390 px): an administrator adds a node that dials the panel, the form says its private address is not
 * used, the Node page waits for the node, shows the SFTP relay's port and a deployment whose config dials out
 * (`"link": "outbound"`, loopback listeners) with what the node's machine needs. Then a real daemon runs that
 * config, dials the panel, and the page (refetching every few seconds) says Connected; a server on that node shows
 * users the relay's address (the node's public host, the panel's, and its SFTP port) in its Files tab.
 */
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningDaemon } from '@hearth/daemon';
import { browserAvailable, screenshot } from './helpers/browser';
import { BrowserSuite } from './helpers/browser-suite';
import { createFakeGameServer, startDaemonFromDeployment } from './helpers/daemon-node';
import { createFirstAdmin, type Account } from './helpers/panel';
import { field } from './helpers/server-ui';

const canRun = browserAvailable('node link mode screens');
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];
const WAIT = { timeout: 120_000 };

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '0.0.0.0');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.runIf(canRun)('node link mode in Chromium', { timeout: 600_000 }, () => {
  let suite: BrowserSuite;
  let admin: Account;
  let daemon: RunningDaemon | undefined;
  const created: Array<{ id: string; page: Page; relayPort: number }> = [];

  const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text });

  beforeAll(async () => {
    suite = await BrowserSuite.start();
    admin = await createFirstAdmin(suite.panel);
  }, 300_000);

  afterAll(() => suite?.close(async () => daemon?.close()), 120_000);

  for (const viewport of VIEWPORTS) {
    it(`adds an outbound node at ${viewport.width} px: waiting, relay port, deployment that dials out`, async () => {
      const page = await suite.open(admin, '/addnode');
      await page.setViewportSize(viewport);
      const relayPort = await freePort();
      await field(page, 'Name').fill(`far-${viewport.width}`);
      await field(page, 'Public host').fill('127.0.0.1');
      await field(page, 'Public port').fill('8443');
      await field(page, 'SFTP port').fill(String(relayPort));
      expect(await page.getByTestId('node-private-unused').count()).toBe(0);
      await page.getByRole('radio', { name: 'Node connects to the panel' }).check();
      await page.getByTestId('node-private-unused').waitFor();
      await page.getByText('Port the panel listens on to relay SFTP to this node').waitFor();
      await page.getByRole('button', { name: 'Create node' }).click();
      await toast(page, 'Node created').waitFor(WAIT);
      await page.waitForURL(/\/node\/[^/]+$/, WAIT);
      const id = decodeURIComponent(page.url().split('/node/')[1] ?? '');

      const state = page.getByTestId('node-link-state');
      await state.getByText('Waiting for the node to connect').waitFor(WAIT);
      await state.getByText(`SFTP is relayed through the panel on port ${relayPort}.`).waitFor(WAIT);
      expect(await page.getByTestId('node-link-badge').first().getAttribute('data-connected')).toBe('false');
      expect(await page.getByRole('radio', { name: 'Node connects to the panel' }).isChecked()).toBe(true);

      const config = JSON.parse((await page.getByTestId('deployment-config').textContent()) ?? '{}') as {
        link?: string;
        host?: string;
        nodeId?: string;
        sftp?: { host?: string; port?: number };
      };
      expect(config).toMatchObject({ link: 'outbound', host: '127.0.0.1', nodeId: id });
      expect(config.sftp).toMatchObject({ host: '127.0.0.1', port: relayPort });
      expect(await page.getByTestId('deployment-config').textContent()).toContain('"link": "outbound"');
      const notes = (await page.getByTestId('deployment-outbound').textContent()) ?? '';
      expect(notes).toContain('no port needs to be opened');
      expect(notes).toContain('outbound HTTPS');
      expect(await page.getByTestId('deployment-outbound-sftp').textContent()).toContain(
        `127.0.0.1 on port ${relayPort}`,
      );
      // A phone does not scroll sideways (the config block scrolls inside itself).
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      await screenshot(page, `node-link-outbound-${viewport.width}`);
      created.push({ id, page, relayPort });
    });
  }

  it('a real daemon runs the deployment config, dials the panel, and the page says Connected', async () => {
    const first = created[0];
    if (!first) throw new Error('no outbound node was created');
    const { page, id } = first;
    const res = await fetch(`${suite.panel.url}/api/nodes/${encodeURIComponent(id)}/deployment`, {
      headers: { authorization: `Bearer ${admin.session}` },
    });
    const { config } = (await res.json()) as { config: Record<string, unknown> };
    // The panel listens on a port picked at start, which the deployment's fallback URL cannot know.
    ({ daemon } = await startDaemonFromDeployment(config, { panelUrl: suite.panel.url }));
    const state = page.getByTestId('node-link-state');
    await state.getByText(/^Connected since .+ · from 127\.0\.0\.1$/).waitFor(WAIT);
    await page.locator('[data-testid="node-link-badge"][data-connected="true"]').first().waitFor(WAIT);
    expect(await state.getByText('Waiting for the node to connect').count()).toBe(0);
    // The node answers the panel through its link: the online badge follows.
    await page.locator(`[data-testid="node-status-${id}"][data-status="online"]`).waitFor(WAIT);
    await screenshot(page, 'node-link-connected-1440');
  });

  it("a server on the outbound node: the Files tab's SFTP box gives the panel's relay address", async () => {
    const first = created[0];
    if (!first) throw new Error('no outbound node was created');
    const serverId = await createFakeGameServer(
      { panel: suite.panel, admin, nodeId: first.id },
      'behind the link',
    );
    const page = await suite.open(admin, `/server/${encodeURIComponent(serverId)}?tab=files`);
    await page.getByTestId('sftp-address').waitFor(WAIT);
    expect(await page.getByTestId('sftp-address').textContent()).toBe(`127.0.0.1:${first.relayPort}`);
  });
});
