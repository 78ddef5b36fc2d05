/**
 * Daemon console lines in the reader's language (issue 16 item 13), in Chromium against a real panel and daemon
 * running the fake game: the lines the daemon writes itself ("Installing server", "Starting server",
 * "Definition reloaded") carry a code, and the console shows them in German at 1440×900 and in Arabic at
 * 390×844, not in English. The HTTP console answer still carries the English text (SPEC's wire format).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser, openSignedIn } from './helpers/browser';
import {
  createFakeGameServer,
  panelApi,
  startPanelWithDaemon,
  type PanelWithDaemon,
} from './helpers/daemon-node';

const canRun = browserAvailable('daemon messages');
const LONG = { timeout: 60_000 };

const cases = [
  {
    locale: 'de_DE',
    viewport: { width: 1440, height: 900 },
    starting: 'Server wird gestartet',
    installed: 'Installation abgeschlossen',
    reloaded: 'Definition neu geladen',
  },
  {
    locale: 'ar_SA',
    viewport: { width: 390, height: 844 },
    starting: 'جارٍ تشغيل الخادم',
    installed: 'انتهى التثبيت',
    reloaded: 'أُعيد تحميل التعريف',
  },
];

describe.runIf(canRun)('daemon messages in the console', () => {
  let live: PanelWithDaemon;
  let browser: Browser;

  beforeAll(async () => {
    live = await startPanelWithDaemon('daemon-messages-node');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
  });

  for (const c of cases) {
    it(`shows the daemon's own lines in ${c.locale} (${c.viewport.width}px)`, async () => {
      const id = await createFakeGameServer(live, `messages ${c.locale}`, { start: true });
      const english = await panelApi<{ logs: string }>(
        live.panel,
        live.admin.session,
        'GET',
        `/proxy/daemon/server/${id}/console`,
      );
      expect(english.logs).toContain('[DAEMON] Starting server');

      const tp = await openSignedIn(browser, live.panel.url, live.admin);
      const { page } = tp;
      await page.setViewportSize(c.viewport);
      await page.evaluate(`localStorage.setItem('locale', '${c.locale}')`);
      await page.goto(`/server/${id}`);
      const output = page.getByTestId('console-output');
      await output.getByText(c.starting, { exact: true }).first().waitFor(LONG);
      await output.getByText(c.installed, { exact: true }).first().waitFor(LONG);

      // A line written while the page is open arrives over the socket and is translated too.
      await panelApi(live.panel, live.admin.session, 'POST', `/proxy/daemon/server/${id}/reload`);
      await output.getByText(c.reloaded, { exact: true }).first().waitFor(LONG);

      const text = (await output.innerText()).toString();
      for (const englishLine of ['Starting server', 'Install finished', 'Definition reloaded']) {
        expect(text).not.toContain(englishLine);
      }
      // The marker never shows: no escape characters or raw codes in the page.
      expect(text).not.toMatch(/7767|hearth;/);
      expect(text.includes('\u001b')).toBe(false);
      // The search box finds the translated wording.
      await page.getByTestId('console-search').fill(c.reloaded);
      await expect.poll(() => output.locator('.console-line').count(), LONG).toBe(1);
      expect(tp.pageErrors).toEqual([]);
      await tp.context.close();
    });
  }
});
