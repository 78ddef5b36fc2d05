/**
 * The setup link is checked on load (docs/api.md § Auth): a bogus or used link says it is invalid before
 * anyone types, and the live one shows the form.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from './helpers/browser';
import { BrowserSuite } from './helpers/browser-suite';
import { createFirstAdmin } from './helpers/panel';

const canRun = browserAvailable('setup link');

describe.runIf(canRun)('the setup link in Chromium', () => {
  let suite: BrowserSuite;
  let livePath = '';

  beforeAll(async () => {
    suite = await BrowserSuite.start();
    const url = new URL(suite.panel.setupUrl ?? '');
    livePath = url.pathname + url.search;
  });

  afterAll(() => suite?.close());

  async function openSetup(path: string): Promise<Page> {
    const { page } = await suite.fresh();
    await page.goto(path);
    await page.locator('[data-testid="setup-invalid"], form').first().waitFor();
    return page;
  }

  it('says a bogus link is invalid and shows no form', async () => {
    const page = await openSetup('/auth/setup?token=bogus-token');
    await page.getByTestId('setup-invalid').waitFor();
    expect(await page.getByLabel('Username').count()).toBe(0);
  });

  it('shows the form for the live link, and says invalid once it was used', async () => {
    const live = await openSetup(livePath);
    await live.getByLabel('Username').waitFor();
    expect(await live.getByTestId('setup-invalid').count()).toBe(0);
    await createFirstAdmin(suite.panel);
    const used = await openSetup(livePath);
    await used.getByTestId('setup-invalid').waitFor();
    expect(await used.getByLabel('Username').count()).toBe(0);
  });
});
