/**
 * The file manager's rename, move, copy, permissions and search in Chromium against a real panel and daemon
 * (issue 16 items 19 and 22): at 1440×900 through the row menu, the selection bar and the dialogs, each checked
 * on disk; at 390×844 the row's ⋮ menu offers the actions (the inline icons are hidden) and renames. File rows
 * draw SVG icons, not Unicode arrows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, openSignedIn, screenshot } from './helpers/browser';
import { createFakeGameServer, startPanelWithDaemon, type PanelWithDaemon } from './helpers/daemon-node';

const run = browserAvailable('files ui ops') ? describe : describe.skip;
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

run('file manager operations', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let serverId: string;
  let root: string;

  beforeAll(async () => {
    live = await startPanelWithDaemon('files-ops-node');
    serverId = await createFakeGameServer(live, 'file ops');
    root = join(live.serversDir, serverId);
    mkdirSync(join(root, 'world'), { recursive: true });
    mkdirSync(join(root, 'moved'), { recursive: true });
    mkdirSync(join(root, 'deep', 'er'), { recursive: true });
    writeFileSync(join(root, 'notes.txt'), 'notes');
    writeFileSync(join(root, 'extra.txt'), 'extra');
    writeFileSync(join(root, 'run.sh'), '#!/bin/sh\n', { mode: 0o644 });
    writeFileSync(join(root, 'deep', 'er', 'needle.txt'), 'found me');
    writeFileSync(join(root, 'phone.txt'), 'phone');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
  });

  async function filesPage(viewport = WIDE) {
    const tp = await openSignedIn(browser, live.panel.url, live.admin, `/server/${serverId}?tab=files`);
    await tp.page.setViewportSize(viewport);
    await tp.page.getByTestId('file-row-phone.txt').waitFor({ timeout: 90_000 });
    return tp;
  }
  const row = (page: Page, name: string) => page.getByTestId(`file-row-${name}`);
  const menu = async (page: Page, name: string, item: string) => {
    await row(page, name).getByTestId('file-actions').click();
    await page.getByTestId(item).click();
  };
  const gone = (page: Page, name: string) => row(page, name).waitFor({ state: 'detached', timeout: 30_000 });

  it('renames, copies, moves, changes permissions and searches (1440×900)', async () => {
    const tp = await filesPage();
    const { page } = tp;
    try {
      // Icons: a folder and a file row draw SVGs, no bare arrows.
      expect(await row(page, 'world').locator('svg[data-icon="folder"]').count()).toBe(1);
      expect(await row(page, 'notes.txt').locator('svg[data-icon="file"]').count()).toBe(1);
      expect(await row(page, 'world').textContent()).not.toMatch(/[▸·⇱⇲]/);

      await menu(page, 'notes.txt', 'file-menu-rename');
      await page.getByTestId('file-rename-name').fill('readme.txt');
      await page.getByTestId('file-rename-submit').click();
      await row(page, 'readme.txt').waitFor({ timeout: 30_000 });
      await gone(page, 'notes.txt');
      expect(readFileSync(join(root, 'readme.txt'), 'utf8')).toBe('notes');

      await menu(page, 'readme.txt', 'file-menu-copy');
      await page.getByTestId('file-transfer-destination').fill('world');
      await page.getByTestId('file-transfer-submit').click();
      await page.getByTestId('file-transfer-dialog').waitFor({ state: 'detached', timeout: 30_000 });
      expect(readFileSync(join(root, 'world', 'readme.txt'), 'utf8')).toBe('notes');
      // Copying again onto the taken name is refused and says so; the dialog stays open.
      await menu(page, 'readme.txt', 'file-menu-copy');
      await page.getByTestId('file-transfer-destination').fill('world');
      await page.getByTestId('file-transfer-submit').click();
      await page.getByText('A file with this name already exists').first().waitFor({ timeout: 30_000 });
      await page.getByTestId('file-transfer-overwrite').check();
      await page.getByTestId('file-transfer-submit').click();
      await page.getByTestId('file-transfer-dialog').waitFor({ state: 'detached', timeout: 30_000 });

      // Move two ticked entries at once.
      for (const name of ['readme.txt', 'extra.txt']) await row(page, name).getByTestId('file-check').check();
      await page.getByTestId('file-move-selected').click();
      await page.getByTestId('file-transfer-destination').fill('moved');
      await page.getByTestId('file-transfer-submit').click();
      await gone(page, 'extra.txt');
      await gone(page, 'readme.txt');
      expect(existsSync(join(root, 'moved', 'readme.txt'))).toBe(true);
      expect(existsSync(join(root, 'moved', 'extra.txt'))).toBe(true);

      // Permissions: the boxes and the octal field follow each other.
      await menu(page, 'run.sh', 'file-menu-permissions');
      const octal = page.getByTestId('file-perm-octal');
      expect(await octal.inputValue()).toBe('644');
      await page.getByTestId('file-perm-owner-execute').check();
      expect(await octal.inputValue()).toBe('744');
      await octal.fill('750');
      expect(await page.getByTestId('file-perm-group-execute').isChecked()).toBe(true);
      expect(await page.getByTestId('file-perm-group-write').isChecked()).toBe(false);
      expect(await page.getByTestId('file-perm-others-read').isChecked()).toBe(false);
      expect(await page.getByTestId('file-perm-symbolic').textContent()).toBe('rwxr-x---');
      await octal.fill('4755');
      expect(await page.getByTestId('file-permissions-submit').isDisabled()).toBe(true);
      await octal.fill('750');
      await page.getByTestId('file-permissions-submit').click();
      await page.getByTestId('file-permissions-dialog').waitFor({ state: 'detached', timeout: 30_000 });
      await expect.poll(() => statSync(join(root, 'run.sh')).mode & 0o7777, { timeout: 30_000 }).toBe(0o750);

      // Search below the current folder; a file hit opens its folder and the file.
      await page.getByTestId('file-search-input').fill('NEEDLE');
      await page.getByTestId('file-search-input').press('Enter');
      const hit = page.locator('[data-testid="file-search-hit"][data-path="deep/er/needle.txt"]');
      await hit.waitFor({ timeout: 30_000 });
      await hit.click();
      const editor = page.getByTestId('file-editor');
      await expect
        .poll(() => editor.locator('.cm-content').textContent(), { timeout: 30_000 })
        .toBe('found me');
      await page.getByTestId('file-editor-close').click();
      await row(page, 'needle.txt').waitFor({ timeout: 30_000 });
      await page.getByTestId('file-search-input').fill('nothing-matches-this');
      await page.getByTestId('file-search-input').press('Enter');
      await page.getByTestId('file-search-note').waitFor({ timeout: 30_000 });
      expect(tp.pageErrors).toEqual([]);
    } catch (err) {
      await screenshot(page, 'files-ops-wide');
      throw err;
    } finally {
      await tp.context.close();
    }
  });

  it('at 390×844 the row menu offers the actions and renames', async () => {
    const tp = await filesPage(PHONE);
    const { page } = tp;
    try {
      expect(await row(page, 'phone.txt').getByTestId('file-delete').isVisible()).toBe(false);
      const trigger = row(page, 'phone.txt').getByTestId('file-actions');
      expect(await trigger.isVisible()).toBe(true);
      const box = await trigger.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      await trigger.click();
      for (const item of [
        'file-menu-download',
        'file-menu-rename',
        'file-menu-move',
        'file-menu-copy',
        'file-menu-permissions',
        'file-menu-delete',
      ])
        expect(await page.getByTestId(item).isVisible(), item).toBe(true);
      await page.getByTestId('file-menu-rename').click();
      await page.getByTestId('file-rename-name').fill('renamed-on-phone.txt');
      await page.getByTestId('file-rename-submit').click();
      await row(page, 'renamed-on-phone.txt').waitFor({ timeout: 30_000 });
      expect(readFileSync(join(root, 'renamed-on-phone.txt'), 'utf8')).toBe('phone');
      expect(tp.pageErrors).toEqual([]);
    } catch (err) {
      await screenshot(page, 'files-ops-phone');
      throw err;
    } finally {
      await tp.context.close();
    }
  });
});
