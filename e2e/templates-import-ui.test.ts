/**
 * The template import list in Chromium against the real panel (issue 16, item 18): templates already imported
 * are marked, a source that changed since the import offers its newer version, and replacing a stored template
 * asks first (also when someone stored it behind the list's back: the guarded import's 409). At 1440×900 and
 * 390×844. Also item 19's definition dialog: it shows the server's id and labels its name as the server's.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { browserAvailable, screenshot } from './helpers/browser';
import { BrowserSuite } from './helpers/browser-suite';
import { addNodeWithDaemon, panelApi, type NodeDaemon } from './helpers/daemon-node';
import { createFirstAdmin, type Account } from './helpers/panel';

const canRun = browserAvailable('template import list');

const game = (display: string, extra: Record<string, unknown> = {}) => ({
  type: 'echo',
  display,
  run: { command: 'sleep 1000', stop: 'stop' },
  environment: { type: 'standard' },
  ...extra,
});

const sizes = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

describe.runIf(canRun)('the template import list in Chromium', () => {
  const localDir = mkdtempSync(join(tmpdir(), 'hearth-e2e-templates-'));
  let suite: BrowserSuite;
  let admin: Account;
  let node: (NodeDaemon & { nodeId: string }) | undefined;

  /** Writes a template into the panel's local template folder, as a maintainer updating it would. */
  function publish(name: string, template: object): void {
    mkdirSync(join(localDir, name), { recursive: true });
    writeFileSync(join(localDir, name, `${name}.json`), JSON.stringify(template, null, 2));
  }

  const call = <T>(method: string, path: string, body?: unknown) =>
    panelApi<T>(suite.panel, admin.session, method, path, body);
  const storedDisplay = async (id: string) =>
    (await call<{ display: string }>('GET', `/api/templates/${id}`)).display;

  beforeAll(async () => {
    publish('echo-game', game('Echo game'));
    publish('versioned-game', game('Versioned game', { version: '1.0' }));
    publish('sneaky-game', game('Sneaky game'));
    suite = await BrowserSuite.start({ templates: { localDir } });
    admin = await createFirstAdmin(suite.panel);
  });

  afterAll(async () => {
    await suite?.close(async () => node?.daemon.close());
    rmSync(localDir, { recursive: true, force: true });
  });

  async function openImport(width: number, height: number): Promise<Page> {
    const page = await suite.open(admin, '/template');
    await page.setViewportSize({ width, height });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await row(page, 'echo-game').waitFor();
    return page;
  }

  const row = (page: Page, name: string) => page.getByTestId(`importable-${name}`);
  const stateOf = (r: Locator) => r.getAttribute('data-state');
  const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root').getByText(text);

  /** Waits until the row shows `state` (the list refetches after each import). */
  async function waitForState(r: Locator, state: string): Promise<void> {
    await expect.poll(() => stateOf(r), { timeout: 30_000 }).toBe(state);
  }

  it('marks an import, then offers the newer version once the source changes (1440×900)', async () => {
    const page = await openImport(1440, 900);
    const echo = row(page, 'echo-game');
    expect(await stateOf(echo)).toBe('new');
    expect(await echo.getByTestId(/^import-state-/).count()).toBe(0);
    await echo.getByRole('button', { name: 'Import', exact: true }).click();
    await toast(page, 'Imported Echo game').waitFor();
    await waitForState(echo, 'current');
    await echo.getByTestId('import-state-current').getByText('Imported').waitFor();
    await echo.getByRole('button', { name: 'Import again' }).waitFor();

    await row(page, 'versioned-game').getByRole('button', { name: 'Import', exact: true }).click();
    await waitForState(row(page, 'versioned-game'), 'current');

    // A stored template the source does not match (saved by hand under a bundled name).
    await call('PUT', '/api/templates/freeciv-server', game('My own freeciv'));
    publish('echo-game', game('Echo game, fixed'));
    publish('versioned-game', game('Versioned game', { version: '1.1' }));
    await page.reload();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await waitForState(echo, 'newer');
    await echo.getByText('Newer version available').waitFor();
    await echo.getByRole('button', { name: 'Update' }).waitFor();
    const versioned = row(page, 'versioned-game');
    await waitForState(versioned, 'newer');
    expect(await versioned.getByTestId('import-versions').innerText()).toBe('Imported 1.0, available 1.1');
    await waitForState(row(page, 'freeciv-server'), 'differs');
    await row(page, 'freeciv-server').getByText('Differs from the source').waitFor();
    await screenshot(page, 'templates-import-state-desktop');
  });

  it('asks before replacing, names lost edits, and replaces only after the confirmation (1440×900)', async () => {
    const stored = await call<Record<string, unknown>>('GET', '/api/templates/echo-game');
    const { id: _id, warnings: _warnings, ...definition } = stored;
    await call('PUT', '/api/templates/echo-game', { ...definition, display: 'Echo game, edited here' });
    const page = await openImport(1440, 900);
    const echo = row(page, 'echo-game');
    await echo.getByTestId('import-state-edited').getByText('Edited since import').waitFor();

    await echo.getByRole('button', { name: 'Update' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replace template echo-game?' });
    await dialog.getByText('The stored template echo-game will be replaced by the one from local.').waitFor();
    await dialog.getByTestId('confirm-reimport-edited').waitFor();
    await screenshot(page, 'templates-import-confirm-desktop');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await storedDisplay('echo-game')).toBe('Echo game, edited here');

    await echo.getByRole('button', { name: 'Update' }).click();
    await dialog.getByRole('button', { name: 'Replace' }).click();
    await toast(page, 'Imported Echo game, fixed').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await waitForState(echo, 'current');
    expect(await echo.getByTestId('import-state-edited').count()).toBe(0);
    expect(await storedDisplay('echo-game')).toBe('Echo game, fixed');
  });

  it('asks too when the template was stored after the list was loaded (the 409), at 390×844', async () => {
    const { width, height } = sizes[1];
    const page = await openImport(width, height);
    const sneaky = row(page, 'sneaky-game');
    expect(await stateOf(sneaky)).toBe('new');
    await call('PUT', '/api/templates/sneaky-game', game('Stored meanwhile'));

    await sneaky.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Replace template sneaky-game?' });
    await dialog.waitFor();
    expect(await storedDisplay('sneaky-game')).toBe('Stored meanwhile');
    await waitForState(sneaky, 'differs');
    await screenshot(page, 'templates-import-confirm-phone');
    await dialog.getByRole('button', { name: 'Replace' }).click();
    await toast(page, 'Imported Sneaky game').waitFor();
    await waitForState(sneaky, 'current');
    expect(await storedDisplay('sneaky-game')).toBe('Sneaky game');
  });

  it.each(sizes)(
    'keeps every row and its button on screen at $width×$height',
    async ({ name, width, height }) => {
      const page = await openImport(width, height);
      await waitForState(row(page, 'versioned-game'), 'newer');
      for (const id of ['echo-game', 'versioned-game', 'freeciv-server']) {
        const button = row(page, id).getByRole('button');
        await button.scrollIntoViewIfNeeded();
        const box = await button.boundingBox();
        expect(box, id).not.toBeNull();
        expect((box?.x ?? 0) + (box?.width ?? 0), id).toBeLessThanOrEqual(width);
        const rowBox = await row(page, id).boundingBox();
        expect((rowBox?.x ?? 0) + (rowBox?.width ?? 0), id).toBeLessThanOrEqual(width);
      }
      await screenshot(page, `templates-import-list-${name}`);
    },
  );

  it.each(sizes)(
    "the definition dialog shows the server's id and its name as the server's name at $width×$height",
    async ({ name, width, height }) => {
      node ??= await addNodeWithDaemon(suite.panel, admin.session, 'node-a');
      const body = { ...fakeGameDefinition(), name: `My fake ${name}`, node: node.nodeId, users: [] };
      const { id } = await call<{ id: string }>('POST', '/api/servers', body);
      const page = await suite.open(admin, `/server/${id}?tab=admin`);
      await page.setViewportSize({ width, height });
      await page.getByRole('button', { name: 'Edit definition' }).click();
      const general = page.getByRole('dialog').getByTestId('general');
      expect(await general.getByLabel('Server id', { exact: true }).inputValue()).toBe(id);
      expect(await general.getByLabel('Server name', { exact: true }).inputValue()).toBe(`My fake ${name}`);
      expect(await general.getByLabel('Display name', { exact: true }).inputValue()).toBe('Fake game');
      expect(await general.getByText("The template's id", { exact: false }).count()).toBe(0);
      await screenshot(page, `server-definition-general-${name}`);
    },
  );
});
