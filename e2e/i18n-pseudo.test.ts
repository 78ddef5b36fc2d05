/**
 * Pseudo-locale: every route of the route table rendered with accented, 30 % longer strings must
 * not overflow horizontally — neither the page nor any element out of its card. The pseudo strings replace
 * the de_DE chunk the app downloads lazily (the page loads them like any locale; nothing in the build changes).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser, screenshot } from './helpers/browser';
import {
  matchesRoute,
  navigate,
  OVERFLOW,
  routeTablePaths,
  signIn,
  startI18nFixture,
  type I18nFixture,
} from './i18n/fixture';
import { pseudoLocale, pseudoText } from './i18n/pseudo';

const canRun = browserAvailable('i18n pseudo-locale');
const CARRIER = 'de_DE';

describe.runIf(canRun)('pseudo-locale renders every route without overflow', () => {
  let fx: I18nFixture;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    fx = await startI18nFixture();
    browser = await launchBrowser();
    const context = await browser.newContext({
      baseURL: fx.live.panel.url,
      viewport: { width: 1280, height: 800 },
    });
    const body = `export default ${JSON.stringify(pseudoLocale())};`;
    await context.route(`**/assets/${CARRIER}-*.js`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body }),
    );
    await context.addInitScript(`localStorage.setItem('locale', '${CARRIER}')`);
    page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
  });

  afterAll(async () => {
    expect(pageErrors).toEqual([]);
    await browser?.close();
    await fx?.live.stop();
  });

  it('covers every route of the route table', () => {
    const paths = [...fx.signedIn, ...fx.publicPaths];
    const uncovered = routeTablePaths().filter((pattern) => !paths.some((p) => matchesRoute(p, pattern)));
    expect(uncovered).toEqual([]);
  });

  async function check(paths: string[]): Promise<string[]> {
    const problems: string[] = [];
    for (const [i, path] of paths.entries()) {
      await navigate(page, path, i === 0);
      const found = await page.evaluate<string[]>(OVERFLOW);
      if (found.length) {
        problems.push(...found.map((p) => `${path}: ${p}`));
        await screenshot(page, `i18n-pseudo${path.replace(/[^a-z0-9]+/gi, '-')}`);
      }
    }
    return problems;
  }

  it('public pages', async () => {
    expect(await check(fx.publicPaths)).toEqual([]);
    // The pseudo strings are what the page shows (the injection worked).
    expect(await page.locator('body').innerText()).toContain(pseudoText('Page not found'));
  });

  it('signed-in pages', async () => {
    await signIn(page.context(), fx.live.panel.url, fx.live.admin);
    expect(await check(fx.signedIn)).toEqual([]);
    await navigate(page, fx.signedIn[1] ?? '/server');
    expect(await page.getByTestId('sidebar').innerText()).toContain(pseudoText('Servers'));
    await screenshot(page, 'i18n-pseudo-server');
  });
});
