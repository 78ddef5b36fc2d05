/**
 * No English anywhere: for each of the 34 translated locales, walk every route of the route table
 * (public pages, then signed in as the administrator: lists, a live server with all its tabs, editors, settings)
 * and fail on any visible text node equal to an en_US string, outside the allowlist of same-as-english.ts.
 * One browser; one context per locale; the session cookie is reused, navigation is client-side. Locales run
 * three at a time (the e2e project's `maxConcurrency`): a walk mostly waits for pages to settle, and one at a
 * time the 34 walks took ~10 minutes of CI. Concurrent tests assert with their own `expect` (Vitest's rule).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { mayMatchEnglish } from '../apps/web/src/i18n/same-as-english';
import { otherLocales, readEnglish } from '../apps/web/test/helpers/i18n-files';
import { browserAvailable, launchBrowser } from './helpers/browser';
import { navigate, signIn, startI18nFixture, VISIBLE_TEXTS, type I18nFixture } from './i18n/fixture';

const canRun = browserAvailable('i18n walk');

/** Matches a visible text against the English strings; placeholders match any filled-in value. */
function englishMatcher(): (text: string) => string | undefined {
  const exact = new Map<string, string>();
  const patterns: Array<[RegExp, string]> = [];
  for (const [key, value] of Object.entries(readEnglish())) {
    if (!value.includes('{{')) exact.set(value, key);
    else if (/\p{L}/u.test(value.replace(/\{\{[^}]*\}\}/g, ''))) {
      const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{\\\{[^}]*\\\}\\\}/g, '.+');
      patterns.push([new RegExp(`^${escaped}$`, 's'), key]);
    }
  }
  return (text) => exact.get(text) ?? patterns.find(([regex]) => regex.test(text))?.[1];
}

describe.runIf(canRun)('every screen in every locale shows no English', () => {
  let fx: I18nFixture;
  let browser: Browser;
  const english = englishMatcher();

  beforeAll(async () => {
    fx = await startI18nFixture();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await fx?.live.stop();
  });

  // Three walks share the machine: each gets more than the e2e project's 120 s default.
  it.concurrent.for(otherLocales)('%s', { timeout: 360_000 }, async (locale, { expect }) => {
    const context = await browser.newContext({
      baseURL: fx.live.panel.url,
      viewport: { width: 1280, height: 800 },
    });
    const pageErrors: string[] = [];
    const found = new Set<string>();
    try {
      await context.addInitScript(`localStorage.setItem('locale', '${locale}')`);
      const page = await context.newPage();
      page.on('pageerror', (err) => pageErrors.push(err.message));
      const walk = async (paths: string[]) => {
        for (const [i, path] of paths.entries()) {
          await navigate(page, path, i === 0);
          for (const text of await page.evaluate<string[]>(VISIBLE_TEXTS)) {
            const key = english(text);
            if (key && !mayMatchEnglish(locale, text)) found.add(`${path}: ${JSON.stringify(text)} (${key})`);
          }
        }
      };
      await walk(fx.publicPaths);
      expect(await page.evaluate('document.documentElement.lang')).toBe(locale.replace('_', '-'));
      await signIn(context, fx.live.panel.url, fx.live.admin);
      await walk(fx.signedIn.filter((p) => !fx.publicPaths.includes(p)));
      expect(await page.evaluate('document.documentElement.lang')).toBe(locale.replace('_', '-'));
    } finally {
      await context.close();
    }
    expect([...found]).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
