import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
const RESULTS_DIR = join(import.meta.dirname, '../../.test-results');

/**
 * Whether browser tests can run here. In CI a missing Chromium is a failure (the suite must not
 * silently vanish); locally the suite is skipped with the reason printed.
 */
export function browserAvailable(suite: string): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  const reason = `${CHROMIUM_PATH} not found (apt-get install chromium)`;
  if (process.env.CI === 'true') throw new Error(`${suite}: ${reason}`);
  console.warn(`[skip] ${suite}: ${reason}`);
  return false;
}

/** Debian's Chromium through playwright-core; never a downloaded browser. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors seen so far; tests assert it stays empty. */
  pageErrors: string[];
}

/** A fresh context (own cookies and storage) with one page pointed at the panel. */
export async function openPage(browser: Browser, baseURL: string, locale = 'en-US'): Promise<TestPage> {
  const context = await browser.newContext({ baseURL, locale, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  return { context, page, pageErrors };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Puts an existing session into the browser the way the web app keeps it (cookie + scopes). */
export async function useSessionIn(
  tp: TestPage,
  baseURL: string,
  session: string,
  scopes: string[],
): Promise<void> {
  await tp.context.addCookies([{ name: 'hearth_session', value: session, url: baseURL, sameSite: 'Strict' }]);
  await tp.page.goto('/errors/404');
  await tp.page.evaluate(`localStorage.setItem('scopes', ${JSON.stringify(JSON.stringify(scopes))})`);
}

/** Reads a value in the page (expressions as text: the e2e tsconfig has no DOM types). */
export async function readInPage(page: Page, expression: string): Promise<string | null> {
  const value: unknown = await page.evaluate(expression);
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A fresh page signed in as `who` (session cookie + scopes), then at `path` when given. */
export async function openSignedIn(
  browser: Browser,
  baseURL: string,
  who: { session: string; scopes: string[] },
  path?: string,
): Promise<TestPage> {
  const tp = await openPage(browser, baseURL);
  await useSessionIn(tp, baseURL, who.session, who.scopes);
  if (path !== undefined) await tp.page.goto(path);
  return tp;
}
