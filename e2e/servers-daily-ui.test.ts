/**
 * Everyday screens against a real panel and a real daemon (issue 16 items 6, 10 and 20; docs/web.md):
 * - the server list shows each server's live status, CPU and memory, and a search by name narrows it;
 * - the Statistics tab shows the current CPU and memory, no fake zeros before the page opened, a memory axis
 *   scaled to the server (not SPEC's fixed 1000 MB) and axis labels in the theme's text colour, dark mode too;
 * - at 390×844 the lists and the server page (console, files, statistics) never scroll the page sideways, the
 *   tab bar sits above the tab instead of over it, and a long file name is shown whole.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, readInPage, screenshot } from './helpers/browser';
import { BrowserSuite } from './helpers/browser-suite';
import { addNodeWithDaemon, createFakeGameServer, type NodeDaemon } from './helpers/daemon-node';
import { createFirstAdmin, type Account } from './helpers/panel';

const canRun = browserAvailable('everyday screens');
// Generous: the CI machine runs everything on two cores.
const LONG = { timeout: 60_000 };
const SLOW_TEST = { timeout: 300_000 };
const LONG_NAME = 'server-configuration-backup-from-last-tuesday.properties';

/** Relative luminance (WCAG) of `rgb(r, g, b)` or `#rrggbb`. */
function luminance(colour: string): number {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(colour);
  const parts = hex
    ? hex.slice(1).map((h) => parseInt(h, 16))
    : (/(\d+)\D+(\d+)\D+(\d+)/.exec(colour)?.slice(1).map(Number) ?? [0, 0, 0]);
  const [r = 0, g = 0, b = 0] = parts.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const noSidewaysScroll = async (page: Page) =>
  expect(
    await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'),
    `${page.url()} scrolls sideways`,
  ).toBe(true);

describe.runIf(canRun)('everyday screens in Chromium', () => {
  let suite: BrowserSuite;
  let admin: Account;
  let node: NodeDaemon & { nodeId: string };
  let runningId = '';
  let stoppedId = '';

  beforeAll(async () => {
    suite = await BrowserSuite.start();
    admin = await createFirstAdmin(suite.panel);
    node = await addNodeWithDaemon(suite.panel, admin.session, 'daily-node', {
      stats: { sampleIntervalMs: 300, diskIntervalMs: 1000 },
    });
    const live = { panel: suite.panel, admin, nodeId: node.nodeId };
    runningId = await createFakeGameServer(live, 'alpha running', { start: true });
    stoppedId = await createFakeGameServer(live, 'beta stopped');
    writeFileSync(join(node.serversDir, runningId, LONG_NAME), 'motd=hello\n');
  });

  afterAll(() => suite?.close(async () => node?.daemon.close()));

  it('lists servers with live status, CPU and memory, and searches by name', SLOW_TEST, async () => {
    const page = await suite.open(admin, '/server');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('servers-table').waitFor(LONG);
    // The panel's node summary is cached a few seconds; the list asks again until it is there.
    await expect
      .poll(() => page.getByTestId(`status-${runningId}`).getAttribute('data-status'), LONG)
      .toBe('online');
    await expect
      .poll(() => page.getByTestId(`status-${stoppedId}`).getAttribute('data-status'), LONG)
      .toBe('offline');
    expect(await page.getByTestId(`cpu-${runningId}`).textContent()).toMatch(/^\d+(\.\d)? %$/);
    await expect
      .poll(() => page.getByTestId(`memory-${runningId}`).textContent(), LONG)
      .toMatch(/^[\d.]+ (KiB|MiB|GiB)$/);
    expect(await page.getByTestId(`memory-${stoppedId}`).textContent()).toBe('–');
    await page.getByTestId('servers-search').fill('ALPHA');
    await page.getByTestId(`server-row-${stoppedId}`).waitFor({ state: 'detached', ...LONG });
    expect(await page.getByTestId(`server-row-${runningId}`).count()).toBe(1);
    await page.getByTestId('servers-search').fill('nothing like it');
    await page.getByText('No servers yet.').waitFor(LONG);
    await screenshot(page, 'daily-server-list');
  });

  it(
    'shows current figures, no zeros before the page opened and a scaled memory axis, readable in dark mode',
    SLOW_TEST,
    async () => {
      const page = await suite.open(admin, `/server/${runningId}?tab=stats`);
      await page.setViewportSize({ width: 1440, height: 900 });
      const memoryNow = page.getByTestId('stats-current-memory');
      await expect.poll(() => memoryNow.textContent(), LONG).toMatch(/^[\d.,]+ MB$/);
      expect(await page.getByTestId('stats-current-cpu').textContent()).toMatch(/^[\d.,]+ %$/);
      const chart = page.getByTestId('memory-chart');
      const points = ((await chart.getAttribute('data-points')) ?? '').split(',');
      expect(points).toHaveLength(40);
      // Before the first sample the points are gaps, not zeros.
      expect(points[0]).toBe('');
      const known = points.filter((p) => p !== '').map(Number);
      const yMax = Number(await chart.getAttribute('data-y-max'));
      expect(yMax).toBeGreaterThanOrEqual(Math.max(...known));
      expect(yMax).toBeLessThan(Math.max(1, Math.max(...known) * 2.5));
      const lightAxis = (await chart.getAttribute('data-axis-color')) ?? '';
      expect(luminance(lightAxis)).toBeLessThan(0.2);
      await page.evaluate("localStorage.setItem('dark', 'true')");
      await page.reload();
      await page.getByTestId('memory-chart').waitFor(LONG);
      await expect
        .poll(
          async () =>
            luminance((await page.getByTestId('memory-chart').getAttribute('data-axis-color')) ?? ''),
          LONG,
        )
        .toBeGreaterThan(0.4);
      await screenshot(page, 'daily-stats-dark');
    },
  );

  it(
    'fits 390 px: no sideways scroll, the tab bar above the tab, a long file name on two lines with its title',
    SLOW_TEST,
    async () => {
      const page = await suite.open(admin, '/server');
      await page.setViewportSize({ width: 390, height: 844 });
      for (const path of ['/server', '/user', '/template', '/node']) {
        await page.goto(path);
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await page.getByRole('heading', { level: 2 }).first().waitFor(LONG);
        await noSidewaysScroll(page);
      }
      for (const tab of ['console', 'stats', 'files']) {
        await page.goto(`/server/${runningId}?tab=${tab}`);
        const content = page.getByTestId(`tab-${tab}`);
        await content.waitFor(LONG);
        const bar = await page.getByTestId('server-tab-bar').boundingBox();
        const box = await content.boundingBox();
        expect(bar && box && bar.y + bar.height <= box.y, `the tab bar covers the ${tab} tab`).toBe(true);
        // One row: the bar is no taller than one tab plus its padding.
        expect(bar?.height ?? 0).toBeLessThan(70);
        await noSidewaysScroll(page);
      }
      const name = page.getByTestId(`file-row-${LONG_NAME}`).getByTestId('file-open');
      await name.waitFor(LONG);
      expect(await name.getAttribute('title')).toBe(LONG_NAME);
      const text = name.locator('p, span, div').first();
      expect(await text.textContent()).toBe(LONG_NAME);
      // Readable: two full lines of the name in a column of real width (the defect cut it to "s…"), nothing cut
      // sideways; a name longer than two lines ends in an ellipsis and the title above carries it whole.
      const [scrollWidth, clientWidth, clientHeight] = await text.evaluate(
        (el: { scrollWidth: number; clientWidth: number; clientHeight: number }) => [
          el.scrollWidth,
          el.clientWidth,
          el.clientHeight,
        ],
      );
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      expect(clientWidth).toBeGreaterThanOrEqual(150);
      expect(clientHeight).toBeGreaterThanOrEqual(30);
      expect(await readInPage(page, 'window.innerWidth')).toBe('390');
      await screenshot(page, 'daily-files-390');
    },
  );
});
