/**
 * The file manager in Chromium against a real panel and daemon: drag-and-drop upload of
 * several files with progress (one at a time, duplicate names once), folders refused once per drop,
 * edit and save, the 20 MiB editor limit, archive then extract, delete with confirmation, a view-only user;
 * a folder of 10,000 entries (virtualized list); listing over the live socket, its error answer, and the HTTP
 * fallback while the socket is closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, openSignedIn, readInPage, screenshot } from './helpers/browser';
import {
  createFakeGameServer,
  signInServerViewer,
  startPanelWithDaemon,
  type PanelWithDaemon,
} from './helpers/daemon-node';

const run = browserAvailable('files ui') ? describe : describe.skip;

/**
 * A drop of real files: the page builds a DataTransfer from their bytes and fires dragover + drop on the drop
 * area (Playwright cannot drive an OS drag). Folders cannot be put in a synthetic DataTransfer, so a folder
 * is an item whose entry says it is a directory, exactly what Chromium hands the page for a dropped folder.
 */
async function drop(page: Page, files: Array<{ name: string; base64: string } | { folder: string }>) {
  await page.evaluate(`(() => {
    const files = ${JSON.stringify(files)};
    const dt = new DataTransfer();
    const items = [];
    for (const f of files) {
      if ('folder' in f) {
        items.push({ kind: 'file', webkitGetAsEntry: () => ({ isDirectory: true, name: f.folder }), getAsFile: () => null });
        continue;
      }
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      const file = new File([bytes], f.name);
      dt.items.add(file);
      items.push({ kind: 'file', webkitGetAsEntry: () => ({ isDirectory: false, name: f.name }), getAsFile: () => file });
    }
    const target = document.querySelector('[data-testid="file-drop"]');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      const event = new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt });
      Object.defineProperty(event, 'dataTransfer', { value: { items, files: dt.files, types: ['Files'] } });
      target.dispatchEvent(event);
    }
  })()`);
}

const fileOf = (name: string, data: Buffer | string) => ({
  name,
  base64: Buffer.from(data).toString('base64'),
});

run('file manager', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let serverId: string;
  let root: string;
  let page: Page;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    live = await startPanelWithDaemon('files-node');
    serverId = await createFakeGameServer(live, 'files ui');
    root = join(live.serversDir, serverId);
    mkdirSync(join(root, 'world'), { recursive: true });
    writeFileSync(join(root, 'world', 'level.dat'), 'level data');
    writeFileSync(join(root, 'config.yml'), 'motd: hello\n');
    writeFileSync(join(root, 'big.log'), Buffer.alloc(20 * 1024 * 1024 + 1, 97));
    browser = await launchBrowser();
    ({ page, pageErrors } = await openSignedIn(browser, live.panel.url, live.admin));
  });
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
  });

  const row = (name: string) => page.getByTestId(`file-row-${name}`);
  const openFiles = async () => {
    await page.goto(`/server/${serverId}?tab=files`);
    await row('config.yml').waitFor();
  };

  it('lists folders first with size and time, and uploads a drop of several files one at a time', async () => {
    await openFiles();
    const names = await page.getByTestId('file-list').locator('[data-testid^="file-row-"]').all();
    const order = await Promise.all(names.map((n) => n.getAttribute('data-testid')));
    expect(order.slice(0, 2)).toEqual(['file-row-world', 'file-row-big.log']);
    expect(await row('config.yml').getByTestId('file-size').textContent()).toBe('12 B');
    expect(await row('big.log').getByTestId('file-size').textContent()).toBe('20 MiB');
    expect(await row('config.yml').getByTestId('file-modified').textContent()).toMatch(/\d/);

    // Record every progress state the page shows while the batch runs.
    await page.evaluate(`(() => {
      window.__progress = [];
      new MutationObserver(() => {
        const el = document.querySelector('[data-testid="upload-progress"]');
        if (el) window.__progress.push(el.getAttribute('data-name') + ':' + el.getAttribute('data-percent'));
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    })()`);
    await drop(page, [
      fileOf('a.txt', 'first'),
      fileOf('large.bin', Buffer.alloc(8 * 1024 * 1024, 7)),
      fileOf('b.txt', 'second'),
      fileOf('a.txt', 'duplicate name in the same drop'),
    ]);
    await row('b.txt').waitFor();
    await row('large.bin').waitFor();
    await page.getByTestId('upload-progress').waitFor({ state: 'detached' });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('first');
    expect(readFileSync(join(root, 'large.bin')).length).toBe(8 * 1024 * 1024);
    const seen = JSON.parse(
      (await readInPage(page, 'JSON.stringify(window.__progress)')) ?? '[]',
    ) as string[];
    const large = seen.filter((s) => s.startsWith('large.bin:')).map((s) => Number(s.split(':')[1]));
    // Loopback is fast: XHR may report no intermediate progress and the next file can replace the bar in the
    // same repaint, so only the shape is certain: the large file's bar showed, and only ever moved forward.
    expect(large.length).toBeGreaterThan(0);
    expect(large.every((p, i) => p >= 0 && p <= 100 && (i === 0 || p >= (large[i - 1] ?? 0)))).toBe(true);
    // One at a time, in drop order. A tiny file can finish between two repaints, so its bar may never be
    // seen: the bars that were seen come in drop order, and the files' write times prove the sequence
    // (sent together, the tiny b.txt would be written before the 8 MiB file).
    const order2 = [...new Set(seen.map((s) => s.split(':')[0]))];
    expect(order2).toContain('large.bin');
    const dropOrder = ['a.txt', 'large.bin', 'b.txt'];
    expect(order2).toEqual(dropOrder.filter((n) => order2.includes(n)));
    const written = (name: string) => statSync(join(root, name)).mtimeMs;
    expect(written('a.txt')).toBeLessThanOrEqual(written('large.bin'));
    expect(written('large.bin')).toBeLessThanOrEqual(written('b.txt'));
  });

  it('refuses folders once per drop and still uploads the files in it', async () => {
    await openFiles();
    await drop(page, [{ folder: 'dir-one' }, fileOf('c.txt', 'third'), { folder: 'dir-two' }]);
    await page.getByText('Cannot upload folders').first().waitFor();
    await row('c.txt').waitFor();
    expect(await page.getByText('Cannot upload folders').count()).toBe(1);
    expect(existsSync(join(root, 'dir-one'))).toBe(false);
    await screenshot(page, 'files-after-drop');
  });

  it('edits and saves a file; a file over 20 MiB is refused with a message', async () => {
    await openFiles();
    await row('config.yml').getByTestId('file-open').click();
    const editor = page.getByTestId('file-editor');
    await editor.locator('.cm-content').waitFor();
    await expect.poll(() => editor.locator('.cm-content').textContent()).toBe('motd: hello');
    await editor.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('motd: edited in the browser');
    await screenshot(page, 'files-editor');
    await page.getByTestId('file-editor-save').click();
    await page.getByText('Saved').first().waitFor();
    await editor.waitFor({ state: 'detached' });
    expect(readFileSync(join(root, 'config.yml'), 'utf8')).toBe('motd: edited in the browser');

    await row('big.log').getByTestId('file-open').click();
    await page.getByText('Files over 20 MiB cannot be opened in the editor').waitFor();
    expect(await page.getByTestId('file-editor').count()).toBe(0);
  });

  it('creates a folder (Create disabled while blank), archives, extracts and deletes', async () => {
    await openFiles();
    await page.getByTestId('file-new-folder').click();
    expect(await page.getByTestId('file-create-submit').isDisabled()).toBe(true);
    await page.getByTestId('file-create-name').fill('   ');
    expect(await page.getByTestId('file-create-submit').isDisabled()).toBe(true);
    await page.getByTestId('file-create-name').fill('made-here');
    await page.getByTestId('file-create-submit').click();
    await row('made-here').waitFor();

    await row('world').getByTestId('file-archive').click();
    await row('world.zip').waitFor();
    await row('world').getByTestId('file-archive').click();
    await row('world (2).zip').waitFor();

    await row('world').getByTestId('file-delete').click();
    await page.getByTestId('file-delete-confirm').click();
    await row('world').waitFor({ state: 'detached' });
    expect(existsSync(join(root, 'world'))).toBe(false);

    await row('world.zip').getByTestId('file-extract').click();
    await row('world').waitFor();
    expect(readFileSync(join(root, 'world', 'level.dat'), 'utf8')).toBe('level data');

    await row('world').getByTestId('file-open').click();
    await row('level.dat').waitFor();
    await row('..').getByTestId('file-open').click();
    await row('world (2).zip').getByTestId('file-delete').click();
    await page.getByTestId('file-delete-confirm').click();
    await row('world (2).zip').waitFor({ state: 'detached' });
    expect(existsSync(join(root, 'world (2).zip'))).toBe(false);
    expect(pageErrors).toEqual([]);
  });

  it('a view-only user sees the listing but no write actions', async () => {
    const viewer = await signInServerViewer(live, serverId, { viewServerFiles: true });
    const tp = await openSignedIn(browser, live.panel.url, viewer, `/server/${serverId}?tab=files`);
    const viewerRow = tp.page.getByTestId('file-row-config.yml');
    await viewerRow.waitFor();
    for (const id of [
      'file-new-file',
      'file-new-folder',
      'file-upload',
      'file-archive-folder',
      'file-picker',
    ])
      expect(await tp.page.getByTestId(id).count(), id).toBe(0);
    expect(await tp.page.getByTestId('file-delete').count()).toBe(0);
    expect(await tp.page.getByTestId('file-archive').count()).toBe(0);
    expect(await tp.page.getByTestId('file-extract').count()).toBe(0);
    expect(await viewerRow.getByTestId('file-download').count()).toBe(1);
    await tp.context.close();
  });

  /** Two shared cores: waits for the 10,000-entry folder and the fallback get room (conditions, not timings). */
  const SLOW = { timeout: 90_000 };

  /** What the page asks for: `file` frames it sends on the live socket, and HTTP listings of `folder`. */
  const recordListing = (target: Page, folder: string) => {
    const frames: string[] = [];
    const http: string[] = [];
    const listingUrl = `/proxy/daemon/server/${serverId}/file/${folder}`;
    target.on('websocket', (ws) => ws.on('framesent', (f) => frames.push(String(f.payload))));
    target.on('request', (r) => {
      if (new URL(r.url()).pathname.replace(/\/$/, '') === listingUrl.replace(/\/$/, '')) http.push(r.url());
    });
    const asked = () => frames.map((f) => JSON.parse(f) as { type: string; data?: { path?: string } });
    return { http, socketGets: () => asked().filter((m) => m.type === 'file' && m.data?.path === folder) };
  };

  it('stays smooth on a folder with 10,000 entries (virtualized list), listed over the socket', async () => {
    const many = join(root, 'many');
    mkdirSync(join(many, 'sub-folder'), { recursive: true });
    for (let i = 0; i < 9_997; i++) writeFileSync(join(many, `file-${String(i).padStart(5, '0')}.txt`), '');
    // Ignoring case, ZZZ sorts after yyy (by code point it would come first).
    writeFileSync(join(many, 'yyy.txt'), 'y');
    writeFileSync(join(many, 'ZZZ-last.txt'), 'the last entry');
    const seen = recordListing(page, 'many');
    await openFiles();
    await row('many').getByTestId('file-open').click();
    await row('file-00000.txt').waitFor(SLOW);
    const list = page.getByTestId('file-list');
    expect(await list.getAttribute('data-count')).toBe('10001'); // 10,000 entries and the parent entry
    const rows = list.locator('[data-testid^="file-row-"]');
    // Rendered rows in screen order (the page holds only a window of them, absolutely placed).
    const shown = async () => {
      const rendered = await readInPage(
        page,
        `JSON.stringify([...document.querySelectorAll('[data-testid="file-list"] [data-testid^="file-row-"]')]
          .map((el) => [parseFloat(el.style.top), el.getAttribute('data-testid').slice('file-row-'.length)]))`,
      );
      const pairs = JSON.parse(rendered ?? '[]') as Array<[number, string]>;
      return pairs.sort((a, b) => a[0] - b[0]).map(([, name]) => name);
    };
    expect((await shown()).slice(0, 3)).toEqual(['..', 'sub-folder', 'file-00000.txt']);
    expect(await rows.count()).toBeLessThan(200);

    await page.evaluate(
      `(() => { const el = document.querySelector('[data-testid="file-list"]'); el.scrollTop = el.scrollHeight; })()`,
    );
    await row('ZZZ-last.txt').waitFor(SLOW);
    expect((await shown()).slice(-2)).toEqual(['yyy.txt', 'ZZZ-last.txt']);
    expect(await rows.count()).toBeLessThan(200);
    await row('ZZZ-last.txt').getByTestId('file-open').click();
    const editor = page.getByTestId('file-editor');
    await expect.poll(() => editor.locator('.cm-content').textContent(), SLOW).toBe('the last entry');
    await screenshot(page, 'files-many');
    // Listed over the live socket, not by the HTTP listing call.
    expect(seen.socketGets().length).toBeGreaterThan(0);
    expect(seen.http).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('a folder deleted behind its back: the error answer clears the loading flag and is toasted', async () => {
    mkdirSync(join(root, 'vanishing'));
    await openFiles();
    await row('vanishing').waitFor();
    rmSync(join(root, 'vanishing'), { recursive: true });
    // Toasts close by themselves: record every one shown so a slow poll cannot miss it.
    await page.evaluate(`(() => {
      window.__toasts = [];
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('.mantine-Notification-root')) window.__toasts.push(el.textContent);
      }).observe(document.body, { subtree: true, childList: true });
    })()`);
    await row('vanishing').getByTestId('file-open').click();
    await expect
      .poll(() => readInPage(page, 'JSON.stringify(window.__toasts)'), SLOW)
      .toContain('File not found');
    await page.getByTestId('file-loading').waitFor({ state: 'detached', ...SLOW });
    // Still in the server folder, its listing shown and usable.
    expect(await page.getByTestId('file-path').textContent()).toBe('Server folder');
    expect(await row('config.yml').isVisible()).toBe(true);
    await page.getByTestId('file-refresh').click();
    await row('vanishing').waitFor({ state: 'detached', ...SLOW });
    expect(pageErrors).toEqual([]);
  });

  it('lists over HTTP while the live socket is closed', async () => {
    const tp = await openSignedIn(browser, live.panel.url, live.admin);
    // Every socket the page opens is closed at once: the reconnects fail and messages go over HTTP.
    await tp.page.routeWebSocket(/\/proxy\/daemon\/socket\//, (ws) => ws.close());
    const seen = recordListing(tp.page, 'world');
    await tp.page.goto(`/server/${serverId}?tab=files`);
    await tp.page.getByTestId('file-row-world').getByTestId('file-open').click();
    await tp.page.getByTestId('file-row-level.dat').waitFor(SLOW);
    expect(seen.http.length).toBeGreaterThan(0);
    expect(tp.pageErrors).toEqual([]);
    await tp.context.close();
  });
});
