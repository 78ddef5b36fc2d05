/**
 * The file manager's everyday tools in Chromium against a real panel and daemon (issue 16 items 4, 14, 22):
 * binary files are offered as a download with no editor or Save, images preview; closing or leaving the editor
 * with unsaved changes asks first; New file opens the file; multi-select with bulk download, archive and
 * delete; "Upload folder" sends every file with its relative path; a view-only user gets no write actions.
 * At 1440×900, and the bulk actions also at 390×844.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, openSignedIn, readInPage, screenshot } from './helpers/browser';
import {
  createFakeGameServer,
  signInServerViewer,
  startPanelWithDaemon,
  type PanelWithDaemon,
} from './helpers/daemon-node';

const run = browserAvailable('files ui manage') ? describe : describe.skip;

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
// A zip's first bytes under a text-looking name: the content decides, not the extension.
const ZIP_BYTES = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0xff, 0xfe]);
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

run('file manager tools', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let serverId: string;
  let root: string;
  let viewer: { session: string; scopes: string[] };

  beforeAll(async () => {
    live = await startPanelWithDaemon('files-manage-node');
    serverId = await createFakeGameServer(live, 'manage files');
    root = join(live.serversDir, serverId);
    writeFileSync(join(root, 'world.cfg'), ZIP_BYTES);
    writeFileSync(join(root, 'notes.txt'), 'before');
    writeFileSync(join(root, 'pic.png'), Buffer.from(PNG_1X1, 'base64'));
    writeFileSync(
      join(root, 'logo.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>window.svgRan = 1</script><rect width="8" height="8"/></svg>',
    );
    viewer = await signInServerViewer(live, serverId, { viewServerFiles: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
  });

  async function filesPage(who: { session: string; scopes: string[] } = live.admin, viewport = WIDE) {
    const tp = await openSignedIn(browser, live.panel.url, who, `/server/${serverId}?tab=files`);
    await tp.page.setViewportSize(viewport);
    // The first listing waits on the live socket; a loaded CI machine can take a while.
    await tp.page.getByTestId('file-row-notes.txt').waitFor({ timeout: 90_000 });
    return tp;
  }
  const row = (page: Page, name: string) => page.getByTestId(`file-row-${name}`);

  it('a binary file is offered as a download, with no editor and no Save', async () => {
    const tp = await filesPage();
    const { page } = tp;
    await row(page, 'world.cfg').getByTestId('file-open').click();
    await page
      .getByTestId('file-binary')
      .waitFor({ timeout: 60_000 })
      .catch(async (err: unknown) => {
        await screenshot(page, 'files-manage-binary');
        throw err;
      });
    expect(await page.getByTestId('file-editor-save').count()).toBe(0);
    expect(await page.locator('.cm-content').count()).toBe(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('file-binary-download').click(),
    ]);
    expect(download.suggestedFilename()).toBe('world.cfg');
    expect(readFileSync(await download.path())).toEqual(ZIP_BYTES);
    expect(readFileSync(join(root, 'world.cfg'))).toEqual(ZIP_BYTES);
    expect(tp.pageErrors).toEqual([]);
    await tp.context.close();
  });

  it('images preview; an SVG is drawn as an image, its script never runs', async () => {
    const tp = await filesPage();
    const { page } = tp;
    for (const name of ['pic.png', 'logo.svg']) {
      await row(page, name).getByTestId('file-open').click();
      await expect
        .poll(() =>
          readInPage(page, `document.querySelector('[data-testid="file-preview-image"]')?.naturalWidth`),
        )
        .toBe(name === 'pic.png' ? '1' : '8');
      expect(await page.getByTestId('file-preview').locator('svg script').count()).toBe(0);
      await page.keyboard.press('Escape');
      await page.getByTestId('file-preview').waitFor({ state: 'detached' });
    }
    expect(await page.evaluate('window.svgRan')).toBeUndefined();
    await tp.context.close();
  });

  async function editNotes(page: Page) {
    await row(page, 'notes.txt').getByTestId('file-open').click();
    const editor = page.getByTestId('file-editor');
    await expect.poll(() => editor.locator('.cm-content').textContent()).toBe('before');
    await editor.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('unsaved edit');
    return editor;
  }

  it('closing the editor with unsaved changes asks; Keep editing keeps them, Discard closes', async () => {
    const tp = await filesPage();
    const { page } = tp;
    const editor = await editNotes(page);
    await page.getByTestId('file-editor-close').click();
    await page.getByTestId('file-discard-keep').waitFor();
    await page.getByTestId('file-discard-keep').click();
    await page.getByTestId('file-discard-keep').waitFor({ state: 'detached' });
    expect(await editor.locator('.cm-content').textContent()).toBe('unsaved edit');
    await page.keyboard.press('Escape');
    await page.getByTestId('file-discard-keep').waitFor();
    await page.getByTestId('file-discard-confirm').click();
    await editor.waitFor({ state: 'detached' });
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('before');
    // Unchanged: closing asks nothing.
    await row(page, 'notes.txt').getByTestId('file-open').click();
    await expect.poll(() => editor.locator('.cm-content').textContent()).toBe('before');
    await page.getByTestId('file-editor-close').click();
    await editor.waitFor({ state: 'detached' });
    expect(await page.getByTestId('file-discard-keep').count()).toBe(0);
    await tp.context.close();
  });

  it('leaving the page with unsaved changes asks first (in-app navigation)', async () => {
    // From the server list into the server (a client-side navigation), so Back stays inside the app.
    const tp = await openSignedIn(browser, live.panel.url, live.admin, '/server');
    const { page } = tp;
    await page.setViewportSize(WIDE);
    await page.getByTestId(`server-row-${serverId}`).getByRole('link').click();
    await page.getByRole('tab', { name: 'Files' }).click();
    await row(page, 'notes.txt').waitFor();
    await editNotes(page);
    await page.goBack();
    await page.getByTestId('file-discard-keep').waitFor();
    await page.getByTestId('file-discard-keep').click();
    expect(await page.getByTestId('file-editor').count()).toBe(1);
    await page.goBack();
    await page.getByTestId('file-discard-confirm').click();
    await page.getByTestId('file-editor').waitFor({ state: 'detached' });
    await expect.poll(() => new URL(page.url()).pathname).toBe('/server');
    await tp.context.close();
  });

  it('New file opens the new file in the editor', async () => {
    const tp = await filesPage();
    const { page } = tp;
    await page.getByTestId('file-new-file').click();
    await page.getByTestId('file-create-name').fill('fresh.txt');
    await page.getByTestId('file-create-submit').click();
    const editor = page.getByTestId('file-editor');
    await editor.locator('.cm-content').waitFor();
    await editor.getByText('fresh.txt').first().waitFor();
    await editor.locator('.cm-content').click();
    await page.keyboard.type('written at once');
    await page.getByTestId('file-editor-save').click();
    await editor.waitFor({ state: 'detached' });
    expect(readFileSync(join(root, 'fresh.txt'), 'utf8')).toBe('written at once');
    await tp.context.close();
  });

  for (const viewport of [WIDE, PHONE]) {
    it(`multi-select: download, archive and delete the ticked entries (${viewport.width}px)`, async () => {
      const dir = `bulk-${viewport.width}`;
      mkdirSync(join(root, dir, 'inner'), { recursive: true });
      writeFileSync(join(root, dir, 'a.txt'), 'A');
      writeFileSync(join(root, dir, 'b.txt'), 'B');
      writeFileSync(join(root, dir, 'keep.txt'), 'K');
      writeFileSync(join(root, dir, 'inner', 'deep.txt'), 'D');
      const tp = await filesPage(live.admin, viewport);
      const { page } = tp;
      await page.goto(`/server/${serverId}?tab=files`);
      await row(page, dir).getByTestId('file-open').click();
      await row(page, 'a.txt').waitFor();
      for (const name of ['a.txt', 'b.txt', 'inner']) await row(page, name).getByTestId('file-check').check();

      const downloads: string[] = [];
      page.on('download', (d) => downloads.push(d.suggestedFilename()));
      await page.getByTestId('file-download-selected').click();
      await expect.poll(() => [...downloads].sort()).toEqual(['a.txt', 'b.txt']);

      await page.getByTestId('file-archive-selected').click();
      await row(page, `${dir}.zip`).waitFor();
      expect(existsSync(join(root, dir, `${dir}.zip`))).toBe(true);

      for (const name of ['a.txt', 'b.txt', 'inner']) await row(page, name).getByTestId('file-check').check();
      await page.getByTestId('file-delete-selected').click();
      await page
        .getByTestId('file-delete-dialog')
        .getByText(/inner, a\.txt, b\.txt/)
        .waitFor();
      await page.getByTestId('file-delete-confirm').click();
      await row(page, 'a.txt').waitFor({ state: 'detached' });
      expect(readdirSync(join(root, dir)).sort()).toEqual([`${dir}.zip`, 'keep.txt']);
      expect(tp.pageErrors).toEqual([]);
      await tp.context.close();
    });
  }

  it('Upload folder sends each file with its relative path, creating the folders', async () => {
    const source = mkdtempSync(join(tmpdir(), 'hearth-upload-'));
    const picked = join(source, 'mods');
    mkdirSync(join(picked, 'sub', 'deeper'), { recursive: true });
    writeFileSync(join(picked, 'top.txt'), 'top');
    writeFileSync(join(picked, 'sub', 'mid.txt'), 'mid');
    writeFileSync(join(picked, 'sub', 'deeper', 'low.txt'), 'low');
    const tp = await filesPage();
    const { page } = tp;
    await page.getByTestId('file-upload-folder').waitFor();
    await page.getByTestId('file-folder-picker').setInputFiles(picked);
    await row(page, 'mods').waitFor();
    await expect.poll(() => existsSync(join(root, 'mods', 'sub', 'deeper', 'low.txt'))).toBe(true);
    await expect.poll(() => existsSync(join(root, 'mods', 'top.txt'))).toBe(true);
    expect(readFileSync(join(root, 'mods', 'sub', 'mid.txt'), 'utf8')).toBe('mid');
    expect(readFileSync(join(root, 'mods', 'sub', 'deeper', 'low.txt'), 'utf8')).toBe('low');
    expect(tp.pageErrors).toEqual([]);
    await tp.context.close();
  });

  it('a view-only user may tick and download, but has no write action, and a binary file has no Save', async () => {
    const tp = await filesPage(viewer);
    const { page } = tp;
    await row(page, 'notes.txt').getByTestId('file-check').check();
    await page.getByTestId('file-download-selected').waitFor();
    for (const id of [
      'file-archive-selected',
      'file-delete-selected',
      'file-upload-folder',
      'file-folder-picker',
      'file-new-file',
    ])
      expect(await page.getByTestId(id).count()).toBe(0);
    await row(page, 'world.cfg').getByTestId('file-open').click();
    await page.getByTestId('file-binary').waitFor();
    expect(await page.getByTestId('file-editor-save').count()).toBe(0);
    await tp.context.close();
  });
});
