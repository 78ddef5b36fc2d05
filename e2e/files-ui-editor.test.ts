/**
 * The file editor in Chromium against a real panel and daemon: Ctrl+S saves the open file (and the browser's
 * "save page" does not open); a view-only user's Ctrl+S writes nothing; a file row's download action is an icon.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, openSignedIn } from './helpers/browser';
import {
  createFakeGameServer,
  signInServerViewer,
  startPanelWithDaemon,
  type PanelWithDaemon,
} from './helpers/daemon-node';

const run = browserAvailable('files ui editor') ? describe : describe.skip;

run('file editor keys', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let serverId: string;
  let root: string;

  beforeAll(async () => {
    live = await startPanelWithDaemon('files-editor-node');
    serverId = await createFakeGameServer(live, 'editor keys');
    root = join(live.serversDir, serverId);
    writeFileSync(join(root, 'notes.txt'), 'before');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
  });

  async function openEditor(page: Page) {
    await page.goto(`/server/${serverId}?tab=files`);
    await page.getByTestId('file-row-notes.txt').getByTestId('file-open').click();
    const editor = page.getByTestId('file-editor');
    await expect.poll(() => editor.locator('.cm-content').textContent()).toBe('before');
    await editor.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('after ctrl s');
    return editor;
  }

  it('Ctrl+S saves the file', async () => {
    const { page } = await openSignedIn(browser, live.panel.url, live.admin);
    await openEditor(page);
    await page.keyboard.press('Control+s');
    await page.getByText('Saved').first().waitFor();
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('after ctrl s');
    writeFileSync(join(root, 'notes.txt'), 'before');
  });

  it('a view-only user has no save and Ctrl+S writes nothing', async () => {
    const viewer = await signInServerViewer(live, serverId, { viewServerFiles: true });
    const { page } = await openSignedIn(browser, live.panel.url, viewer);
    await page.goto(`/server/${serverId}?tab=files`);
    await page.getByTestId('file-row-notes.txt').getByTestId('file-open').click();
    const editor = page.getByTestId('file-editor');
    await expect.poll(() => editor.locator('.cm-content').textContent()).toBe('before');
    await editor.locator('.cm-content').click();
    await page.keyboard.press('Control+s');
    expect(await page.getByTestId('file-editor-save').count()).toBe(0);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('before');
  });

  it('the download action in a file row draws an icon, not a text arrow', async () => {
    const { page } = await openSignedIn(browser, live.panel.url, live.admin);
    await page.goto(`/server/${serverId}?tab=files`);
    const link = page.getByTestId('file-row-notes.txt').getByTestId('file-download');
    const box = await link.locator('svg path').boundingBox();
    expect(box && box.width > 4 && box.height > 4).toBe(true);
    expect(((await link.textContent()) ?? '').trim()).toBe('');
    expect(await link.getAttribute('aria-label')).toBe('Download');
  });
});
