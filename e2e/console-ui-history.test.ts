/**
 * The console's command history in Chromium against a real panel and daemon running the fake game: sent
 * commands come back with ↑ (newest first), ↓ returns to the line being typed, the history survives a reload
 * and belongs to its server only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, openSignedIn } from './helpers/browser';
import { createFakeGameServer, startPanelWithDaemon, type PanelWithDaemon } from './helpers/daemon-node';

const run = browserAvailable('console history') ? describe : describe.skip;

run('console command history', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let page: Page;
  let first: string;
  let second: string;

  beforeAll(async () => {
    live = await startPanelWithDaemon('console-history-node');
    first = await createFakeGameServer(live, 'history one', { start: true });
    second = await createFakeGameServer(live, 'history two');
    browser = await launchBrowser();
    ({ page } = await openSignedIn(browser, live.panel.url, live.admin, `/server/${first}`));
  });
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
  });

  const input = () => page.getByTestId('console-command');

  it('↑ recalls sent commands newest first, ↓ goes back to the typed line', async () => {
    const output = page.getByTestId('console-output');
    for (const command of ['say one', 'say two']) {
      await input().fill(command);
      await input().press('Enter');
      await output.getByText(`echo: ${command}`).waitFor();
    }
    await input().fill('half typed');
    await input().press('ArrowUp');
    expect(await input().inputValue()).toBe('say two');
    await input().press('ArrowUp');
    expect(await input().inputValue()).toBe('say one');
    await input().press('ArrowUp');
    expect(await input().inputValue()).toBe('say one');
    await input().press('ArrowDown');
    await input().press('ArrowDown');
    expect(await input().inputValue()).toBe('half typed');
  });

  it('survives a reload and is not shown on another server', async () => {
    await page.reload();
    await input().waitFor();
    await input().press('ArrowUp');
    expect(await input().inputValue()).toBe('say two');
    await page.goto(`/server/${second}`);
    await input().waitFor();
    await input().press('ArrowUp');
    expect(await input().inputValue()).toBe('');
  });
});
