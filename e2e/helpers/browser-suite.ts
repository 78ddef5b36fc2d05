import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchBrowser, openPage, openSignedIn, type TestPage } from './browser';
import { startTestPanel, type TestPanel, type TestPanelOptions } from './panel';

/**
 * What a browser suite shares: the real panel, one Chromium, and every page opened through it, so the end of
 * the suite can check that none saw an uncaught error.
 */
export class BrowserSuite {
  private readonly pages: TestPage[] = [];

  private constructor(
    readonly panel: TestPanel,
    readonly browser: Browser,
  ) {}

  /** Starts the real panel (see `startTestPanel`) and Chromium. */
  static async start(options: TestPanelOptions = {}): Promise<BrowserSuite> {
    const panel = await startTestPanel(options);
    try {
      return new BrowserSuite(panel, await launchBrowser());
    } catch (err) {
      await panel.stop();
      throw err;
    }
  }

  /** A fresh context (own cookies and storage) with one page pointed at the panel. */
  async fresh(locale?: string): Promise<TestPage> {
    const tp = await openPage(this.browser, this.panel.url, locale);
    this.pages.push(tp);
    return tp;
  }

  /** A fresh page signed in as `who`, at `path`. */
  async open(who: { session: string; scopes: string[] }, path: string): Promise<Page> {
    const tp = await openSignedIn(this.browser, this.panel.url, who, path);
    this.pages.push(tp);
    return tp.page;
  }

  /**
   * Checks that no page saw an uncaught error, closes Chromium, runs `beforePanelStops` (daemons and the like
   * the suite started against the panel), then stops the panel.
   */
  async close(beforePanelStops?: () => Promise<void>): Promise<void> {
    for (const tp of this.pages) expect(tp.pageErrors).toEqual([]);
    await this.browser.close();
    await beforePanelStops?.();
    await this.panel.stop();
  }
}
