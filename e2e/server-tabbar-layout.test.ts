/**
 * The server page's frame holds still (issue 16 items 6 and 19; docs/web.md § Server page), at 1440×900 and
 * 390×844, on a running server of the fake game with the administrator's full set of tabs:
 * - the tab bar sits at the top of the page, right under the header, above the type's view and the tab, at the
 *   same place and size on every tab (it used to sit under the server's info and shift from tab to tab);
 * - the "Powered by" footer never covers the console's command line (fixed to the window, it hid the line at
 *   390×844): neither on the page as it opens nor with the command line scrolled to the bottom of the window.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from './helpers/browser';
import { BrowserSuite } from './helpers/browser-suite';
import { addNodeWithDaemon, createFakeGameServer, type NodeDaemon } from './helpers/daemon-node';
import { createFirstAdmin, type Account } from './helpers/panel';

const canRun = browserAvailable('server tab bar layout');
// Generous: the CI machine runs everything on two cores.
const LONG = { timeout: 60_000 };
// Ten tabs, each loaded and left to settle: minutes on a loaded machine.
const SLOW_TEST = { timeout: 300_000 };
const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The element's box relative to the top of the page (not the window), `null` when it is not there. */
const pageBox = (page: Page, testId: string) =>
  page.evaluate<Box | null>(`(() => {
    const el = document.querySelector('[data-testid="${testId}"]');
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y + window.scrollY, width: r.width, height: r.height };
  })()`);

/** Waits until the page stops changing size (a lazily loaded tab settled). */
async function settled(page: Page): Promise<void> {
  let last = '';
  await expect
    .poll(
      async () => {
        const now = await page.evaluate<string>(
          `document.documentElement.scrollHeight + 'x' + document.documentElement.scrollWidth + ':' + !!document.querySelector('.mantine-Loader-root')`,
        );
        const same = now === last && now.endsWith(':false');
        last = now;
        return same;
      },
      { timeout: 30_000, interval: 300 },
    )
    .toBe(true);
}

/** Whether the middle of the element is the element itself (or inside it), i.e. nothing is drawn over it. */
const uncovered = (page: Page, testId: string) =>
  page.evaluate<boolean>(`(() => {
    const el = document.querySelector('[data-testid="${testId}"]');
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !!top && (el === top || el.contains(top) || top.contains(el));
  })()`);

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The footer's box in window coordinates against the command line's. */
const windowBoxes = (page: Page) =>
  page.evaluate<{ footer: Box; command: Box; innerHeight: number }>(`(() => {
    const box = (id) => {
      const r = document.querySelector('[data-testid="' + id + '"]').getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    return { footer: box('footer'), command: box('console-command'), innerHeight: window.innerHeight };
  })()`);

describe.runIf(canRun)('server page frame in Chromium', () => {
  let suite: BrowserSuite;
  let admin: Account;
  let node: NodeDaemon | undefined;
  let serverId = '';

  beforeAll(async () => {
    suite = await BrowserSuite.start();
    admin = await createFirstAdmin(suite.panel);
    const added = await addNodeWithDaemon(suite.panel, admin.session, 'layout-node');
    node = added;
    serverId = await createFakeGameServer({ panel: suite.panel, admin, nodeId: added.nodeId }, 'layout', {
      start: true,
    });
  });

  afterAll(async () => {
    await suite?.close(async () => {
      await node?.daemon.close();
    });
  });

  for (const size of SIZES) {
    it(
      `${size.width}×${size.height}: the tab bar is at the top and holds still on every tab`,
      SLOW_TEST,
      async () => {
        const page = await suite.open(admin, `/server/${serverId}`);
        await page.setViewportSize(size);
        await page.getByTestId('tab-console').waitFor(LONG);
        const tabs = await page.evaluate<string[]>(
          `[...document.querySelectorAll('[data-testid="server-tabs"] [data-tab]')].map((el) => el.dataset.tab)`,
        );
        expect(tabs.length).toBeGreaterThan(5);
        const seen: Array<{ tab: string; bar: Box | null }> = [];
        for (const tab of tabs) {
          // As a user does: click the tab (scrolled into view in the sideways row on a phone). Clicked again if
          // the tab did not open: on a loaded machine a click can land while the live status re-renders the bar.
          const button = page.locator(`[data-testid="server-tabs"] [data-tab="${tab}"]`);
          const content = page.getByTestId(`tab-${tab}`);
          await expect
            .poll(
              async () => {
                if ((await content.count()) === 0) await button.click();
                return content.count();
              },
              { timeout: 60_000, interval: 2_000 },
            )
            .toBe(1);
          await settled(page);
          const bar = await pageBox(page, 'server-tab-bar');
          const box = await pageBox(page, `tab-${tab}`);
          expect(bar && box && bar.y + bar.height <= box.y, `the bar is above the ${tab} tab`).toBe(true);
          // At the top: nothing of the page but the header (name, controls) comes before it.
          const header = await page.evaluate<number>(
            `document.querySelector('[data-testid="server-controls"]').getBoundingClientRect().bottom + window.scrollY`,
          );
          expect(bar && bar.y >= header && bar.y - header < 40, `the bar is under the header`).toBe(true);
          seen.push({ tab, bar });
        }
        const first = seen[0]?.bar;
        for (const { tab, bar } of seen) {
          expect({ tab, ...bar }, `the bar moved on ${tab}`).toEqual({ tab, ...first });
        }
      },
    );

    it(
      `${size.width}×${size.height}: the footer does not cover the console's command line`,
      SLOW_TEST,
      async () => {
        const page = await suite.open(admin, `/server/${serverId}`);
        await page.setViewportSize(size);
        const command = page.getByTestId('console-command');
        await command.waitFor(LONG);
        await settled(page);
        // As the page opens.
        const opened = await windowBoxes(page);
        expect(overlaps(opened.footer, opened.command), 'footer over the command line as opened').toBe(false);
        // Scrolled so that the command line is at the bottom edge of the window, where a fixed footer sat.
        await command.evaluate((el: { scrollIntoView: (o: object) => void }) =>
          el.scrollIntoView({ block: 'end' }),
        );
        const scrolled = await windowBoxes(page);
        expect(scrolled.command.y + scrolled.command.height).toBeLessThanOrEqual(scrolled.innerHeight + 1);
        expect(
          overlaps(scrolled.footer, scrolled.command),
          'footer over the command line at the bottom',
        ).toBe(false);
        expect(await uncovered(page, 'console-command'), 'something is drawn over the command line').toBe(
          true,
        );
        // And typing there works.
        await command.fill('say hello');
        expect(await command.inputValue()).toBe('say hello');
      },
    );
  }
});
