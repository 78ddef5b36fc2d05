/**
 * Right-to-left layout: the server page of a live server in ar_SA, in Chromium against the real
 * panel and a real daemon. The sidebar sits on the right, direction icons are flipped, the console stays
 * left-to-right. The screenshot lands in .test-results/i18n-rtl-server.png.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserAvailable,
  launchBrowser,
  openSignedIn,
  readInPage,
  screenshot,
  type TestPage,
} from './helpers/browser';
import { createFakeGameServer, startPanelWithDaemon, type PanelWithDaemon } from './helpers/daemon-node';

const canRun = browserAvailable('i18n rtl');

interface Box {
  x: number;
  width: number;
}

describe.runIf(canRun)('server page in ar_SA (right-to-left)', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let serverId = '';
  let tp: TestPage;

  beforeAll(async () => {
    live = await startPanelWithDaemon('node-rtl');
    serverId = await createFakeGameServer(live, 'rtl-game', { start: true });
    browser = await launchBrowser();
    tp = await openSignedIn(browser, live.panel.url, live.admin);
    await tp.page.evaluate(`localStorage.setItem('locale', 'ar_SA')`);
    await tp.page.goto(`/server/${serverId}`);
    await tp.page.getByTestId('console-output').waitFor();
  });

  afterAll(async () => {
    expect(tp?.pageErrors ?? []).toEqual([]);
    await browser?.close();
    await live?.stop();
  });

  const box = async (testId: string): Promise<Box> => {
    const b = await tp.page.getByTestId(testId).boundingBox();
    if (!b) throw new Error(`${testId} is not visible`);
    return b;
  };

  it('marks the document right-to-left in Arabic', async () => {
    expect(await readInPage(tp.page, 'document.documentElement.dir')).toBe('rtl');
    expect(await readInPage(tp.page, 'document.documentElement.lang')).toBe('ar-SA');
    // Translated chrome, not English.
    await tp.page.getByRole('link', { name: 'الخوادم' }).first().waitFor();
  });

  it('puts the sidebar on the right of the page content', async () => {
    // The layout's width: the window less the scroll bar's gutter the page always keeps (global.css).
    const width = Number(await readInPage(tp.page, 'document.body.clientWidth'));
    const sidebar = await box('sidebar');
    const content = await box('server-page');
    // The sidebar hugs the right edge (its own padding aside); the page content is entirely to its left.
    expect(sidebar.x).toBeGreaterThan(width / 2);
    expect(sidebar.x + sidebar.width).toBeGreaterThan(width - 24);
    expect(content.x + content.width).toBeLessThanOrEqual(sidebar.x);
  });

  it('flips icons that point along the reading direction', async () => {
    const transform = await readInPage(
      tp.page,
      `getComputedStyle(document.querySelector('.hearth-mirror-rtl')).transform`,
    );
    expect(transform).toBe('matrix(-1, 0, 0, 1, 0, 0)');
  });

  it('keeps the console left-to-right', async () => {
    const dir = `getComputedStyle(document.querySelector('[data-testid="console-output"]')).direction`;
    expect(await readInPage(tp.page, dir)).toBe('ltr');
    const input = `getComputedStyle(document.querySelector('[data-testid="console-command"]')).direction`;
    expect(await readInPage(tp.page, input)).toBe('ltr');
  });

  it('saves a screenshot of the mirrored server page', async () => {
    const path = await screenshot(tp.page, 'i18n-rtl-server');
    expect(path).toContain('i18n-rtl-server.png');
  });
});
