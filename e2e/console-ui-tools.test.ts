/**
 * The console's reading tools in Chromium against a real panel and daemon running the fake game (issue 16
 * item 21): the search box shows only matching lines, copy puts the selection or the shown output on the
 * clipboard, and scrolling up stops following output and offers "Jump to bottom". At 1440×900 and 390×844.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, openSignedIn, readInPage } from './helpers/browser';
import { createFakeGameServer, startPanelWithDaemon, type PanelWithDaemon } from './helpers/daemon-node';

const run = browserAvailable('console tools') ? describe : describe.skip;

const scrollState = (page: Page) =>
  readInPage(
    page,
    `(() => { const el = document.querySelector('[data-testid="console-output"]');
      return { top: el.scrollTop, bottom: el.scrollHeight - el.scrollTop - el.clientHeight }; })()`,
  ).then((json) => JSON.parse(json ?? '{}') as { top: number; bottom: number });

run('console search, copy and jump to bottom', () => {
  let live: PanelWithDaemon;
  let browser: Browser;

  beforeAll(async () => {
    live = await startPanelWithDaemon('console-tools-node');
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
    it(`search, copy and jump to bottom (${viewport.width}px)`, async () => {
      const id = await createFakeGameServer(live, `tools ${viewport.width}`, { start: true });
      const tp = await openSignedIn(browser, live.panel.url, live.admin, `/server/${id}`);
      const { page } = tp;
      await page.setViewportSize(viewport);
      await tp.context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const output = page.getByTestId('console-output');
      const input = page.getByTestId('console-command');
      await input.fill('flood 300');
      await input.press('Enter');
      await output.getByText('flood done').waitFor({ timeout: 60_000 });

      // Search: only the matching lines stay; clearing it brings everything back.
      await page.getByTestId('console-search').fill('LINE 123');
      await output.getByText(/^flood line 123 x+$/).waitFor();
      await expect.poll(() => output.locator('.console-line').count()).toBe(1);
      await page.getByTestId('console-copy').click();
      await expect
        .poll(() => readInPage(page, 'navigator.clipboard.readText()'))
        .toMatch(/^flood line 123 x+$/);
      await page.getByTestId('console-search').fill('');
      await expect.poll(() => output.locator('.console-line').count()).toBeGreaterThan(5);

      // Copy with a selection inside the output copies just that.
      await page.evaluate(`(() => {
        const line = [...document.querySelectorAll('[data-testid="console-output"] .console-line span')]
          .find((el) => el.textContent === 'flood done');
        const range = document.createRange();
        range.selectNodeContents(line);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
      })()`);
      await page.getByTestId('console-copy').click();
      await expect.poll(() => readInPage(page, 'navigator.clipboard.readText()')).toBe('flood done');

      // Following: at the bottom, no jump button; scrolled up, the button shows and new output does not move it.
      await expect.poll(async () => (await scrollState(page)).bottom).toBeLessThanOrEqual(4);
      expect(await page.getByTestId('console-jump-bottom').count()).toBe(0);
      await page.evaluate(`document.querySelector('[data-testid="console-output"]').scrollTop = 0`);
      await page.getByTestId('console-jump-bottom').waitFor();
      const height = async () =>
        Number(
          await readInPage(page, `document.querySelector('[data-testid="console-output"]').scrollHeight`),
        );
      const before = await height();
      await input.fill('say after scrolling up');
      await input.press('Enter');
      // The new line made the output taller (it is below the rendered window, so not in the page yet).
      await expect.poll(height, { timeout: 30_000 }).toBeGreaterThan(before);
      expect((await scrollState(page)).top).toBe(0);
      await page.getByTestId('console-jump-bottom').click();
      await expect.poll(async () => (await scrollState(page)).bottom).toBeLessThanOrEqual(4);
      await output.getByText('echo: say after scrolling up').waitFor();
      await expect.poll(() => page.getByTestId('console-jump-bottom').count()).toBe(0);
      expect(tp.pageErrors).toEqual([]);
      await tp.context.close();
    });
  }
});
