/**
 * A real Debian dedicated game server driven entirely through the browser: an admin imports the bundled
 * freeciv-server template, adds a server on the node, installs it from the server page, starts it, reads
 * Freeciv's startup output, sends `list` and sees the AI players in the reply, watches the stats charts receive values,
 * stops it and sees the dot go offline. While it runs, the game port accepts a TCP connection; after, it refuses.
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireFreeciv } from '../apps/daemon/test/helpers/freeciv';
import { browserAvailable, launchBrowser, openSignedIn, screenshot, type TestPage } from './helpers/browser';
import { panelApi, startPanelWithDaemon, type PanelWithDaemon } from './helpers/daemon-node';
import { freePort, tcpAccepts } from './helpers/net';

// Both are needed; in CI either missing throws (the suite fails), locally it is skipped with the reason.
const canRun = browserAvailable('game server UI') && requireFreeciv();

/** Players Freeciv fills the game up to: not the template's default (5), so the reply proves the value flowed. */
const AIFILL = 3;
const LONG = { timeout: 60_000 };

const points = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).getAttribute('data-points')) ?? '').split(',').map(Number);

describe.runIf(canRun)('a real freeciv-server through the browser', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let tp: TestPage;
  let page: Page;
  let port = 0;
  let serverId = '';

  /** A labelled input; required ones carry a ' *' after the label text. */
  const field = (label: string) => page.getByLabel(new RegExp(`^${label}( \\*)?$`));
  const output = () => page.getByTestId('console-output');
  const dot = () => page.getByTestId('server-status');
  const control = (name: string) =>
    page.getByTestId('server-controls').getByRole('button', { name, exact: true });

  beforeAll(async () => {
    live = await startPanelWithDaemon('local-node');
    // Freeciv refuses root: the daemon runs it under the server's own uid and keeps its data dir searchable.
    port = await freePort();
    browser = await launchBrowser();
    tp = await openSignedIn(browser, live.panel.url, live.admin, '/template');
    page = tp.page;
  });

  afterAll(async () => {
    expect(tp?.pageErrors ?? []).toEqual([]);
    await browser?.close();
    await live?.stop(); // stops the daemon, which stops a Freeciv a failed step left running
    if (live) await rm(dirname(live.serversDir), { recursive: true, force: true });
  });

  it('imports the bundled freeciv-server template', async () => {
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByTestId('importable-freeciv-server').getByRole('button', { name: 'Import' }).click();
    await page.getByText('Imported Freeciv server').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('template-freeciv-server').waitFor();
  });

  it('adds the server on the node with its variables and a free port, then installs it from its page', async () => {
    await page.goto('/addserver');
    await field('Template').first().click();
    await page.getByRole('option', { name: 'Freeciv server' }).click();
    await field('Node').first().click();
    await page.getByRole('option', { name: 'local-node' }).click();
    await field('Name').fill('freeciv one');
    await field('Environment').first().click();
    await page.getByRole('option', { name: 'Standard process' }).click();
    await field('IP').fill('127.0.0.1');
    await field('Port').fill(String(port));
    await field('Players \\(with AI\\)').fill(String(AIFILL));
    await screenshot(page, 'freeciv-add-server');
    await page.getByRole('button', { name: 'Create server' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Later' }).click();
    await page.waitForURL(/\/server\/[0-9a-f]{8}$/);
    serverId = page.url().split('/server/')[1] ?? '';
    const definition = await panelApi<{
      environment: { type: string };
      data: Record<string, { value: unknown }>;
    }>(live.panel, live.admin.session, 'GET', `/proxy/daemon/server/${serverId}`);
    expect(definition.environment.type).toBe('standard');
    expect(definition.data.port?.value).toBe(port);

    await expect.poll(() => dot().getAttribute('data-status'), LONG).toBe('offline');
    await control('Install').click();
    // The install step runs the Debian binary: its version line, then the daemon's closing line.
    await output()
      .getByText(/Freeciv version 3/)
      .first()
      .waitFor(LONG);
    await output().getByText('Install finished').first().waitFor(LONG);
    await expect.poll(() => control('Install').getAttribute('data-loading'), LONG).toBeNull();
    expect(await output().getByText('Install failed').count()).toBe(0);
    await screenshot(page, 'freeciv-installed');
  });

  it('starts Freeciv, shows its output, answers a console command and accepts a TCP connection', async () => {
    expect(await tcpAccepts(port)).toBe(false);
    await control('Start').click();
    await output().getByText(`Now accepting new client connections on port ${port}`).first().waitFor(LONG);
    await expect.poll(() => dot().getAttribute('data-status'), LONG).toBe('online');
    // `list` is not part of Freeciv's startup output; its reply names the AI players the game was filled with.
    expect(await output().getByText('List of players:').count()).toBe(0);
    const command = page.getByTestId('console-command');
    await command.fill('list');
    await command.press('Enter');
    await output().getByText('List of players:').waitFor(LONG);
    await output()
      .getByText(new RegExp(`^AI\\*${AIFILL} \\[#[0-9a-f]{6}\\]: Team ${AIFILL}, user Unassigned`))
      .waitFor(LONG);
    expect(await tcpAccepts(port)).toBe(true);
    // Freeciv itself took the connection: it reports the client that came and went.
    await output()
      .getByText(/Lost connection: c\d+ from /)
      .first()
      .waitFor(LONG);
    await screenshot(page, 'freeciv-console');
  });

  it('shows CPU and memory values in the Statistics tab', async () => {
    await page.getByTestId('server-tabs').getByText('Statistics').click();
    await page.getByTestId('stats-tab').waitFor();
    // The first sample covers the time since start (Freeciv's ruleset loading), so CPU is above zero too.
    await expect.poll(async () => (await points(page, 'memory-chart')).at(-1), LONG).toBeGreaterThan(0);
    await expect.poll(async () => Math.max(...(await points(page, 'cpu-chart'))), LONG).toBeGreaterThan(0);
    expect(await points(page, 'cpu-chart')).toHaveLength(40);
    await screenshot(page, 'freeciv-stats');
  });

  it('stops Freeciv with its own quit; the dot goes offline and the port closes', async () => {
    await page.getByTestId('server-tabs').getByText('Console').click();
    await control('Stop').click();
    await expect.poll(() => dot().getAttribute('data-status'), LONG).toBe('offline');
    await output().getByText('Goodbye.').first().waitFor(LONG);
    // The daemon's line comes after Freeciv's "> " prompt, yet starts a line of its own with the DAEMON tag.
    const daemonLines = output().locator('.console-line', { has: page.getByTestId('daemon-tag') });
    await daemonLines.filter({ hasText: "Stopping server ('quit')" }).first().waitFor(LONG);
    expect(await tcpAccepts(port)).toBe(false);
    await screenshot(page, 'freeciv-stopped');
  });
});
