/**
 * The file manager uploads through tus (docs/files.md § Resumable uploads) in Chromium at 1440×900, against a
 * real panel and daemon: the upload is a creation and a series of chunks (no multipart `PUT`), the toolbar shows
 * the file's progress on the way, and the file arrives intact; an upload cut by a page reload resumes from the
 * node's offset when the same file is picked again (its address kept in localStorage), without a new creation.
 * The panel's chunk size is shrunk to 1 MiB in the page's copy of `/api/config`, so a few MiB make many chunks.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../apps/daemon/test/helpers/poll';
import { browserAvailable, launchBrowser, openSignedIn, screenshot } from './helpers/browser';
import { createFakeGameServer, startPanelWithDaemon, type PanelWithDaemon } from './helpers/daemon-node';

const run = browserAvailable('files ui tus') ? describe : describe.skip;
const MIB = 1024 * 1024;
const WIDE = { width: 1440, height: 900 };

/** The page's `/api/config` with 1 MiB chunks (the panel's answer otherwise unchanged). */
async function smallChunks(page: Page): Promise<void> {
  await page.route('**/api/config', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...json, uploadChunkBytes: MIB } });
  });
}

/** Every percentage the progress bar showed, recorded in the page as it changes. */
async function recordProgress(page: Page): Promise<void> {
  // A string: the e2e project has no DOM types (the browser runs it).
  await page.evaluate(`(() => {
    const seen = (window.seenPercent = []);
    new MutationObserver(() => {
      const bar = document.querySelector('[data-testid="upload-progress"]');
      const percent = bar && bar.getAttribute('data-percent');
      if (percent && seen[seen.length - 1] !== percent) seen.push(percent);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  })()`);
}

const storedUploads = (page: Page) =>
  page.evaluate<string[]>(`Object.keys(localStorage).filter((k) => k.startsWith('tus::'))`);

run('file manager uploads through tus', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let serverId: string;
  let root: string;
  let source: string;

  beforeAll(async () => {
    live = await startPanelWithDaemon('files-tus-node');
    serverId = await createFakeGameServer(live, 'tus files');
    root = join(live.serversDir, serverId);
    source = mkdtempSync(join(tmpdir(), 'hearth-tus-ui-'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
    if (source) rmSync(source, { recursive: true, force: true });
  });

  async function filesPage() {
    const tp = await openSignedIn(browser, live.panel.url, live.admin, `/server/${serverId}?tab=files`);
    await tp.page.setViewportSize(WIDE);
    await smallChunks(tp.page);
    await tp.page.reload();
    await tp.page.getByTestId('file-upload').waitFor({ timeout: 90_000 });
    return tp;
  }

  const uploadCalls = (requests: Request[]) =>
    requests
      .filter((r) => r.url().includes(`/proxy/daemon/server/${serverId}/`))
      .map((r) => ({ method: r.method(), url: r.url(), offset: r.headers()['upload-offset'] }));

  it(
    'sends a creation and chunks, shows the progress, and the file arrives intact',
    { timeout: 300_000 },
    async () => {
      const data = randomBytes(6 * MIB + 123);
      const file = join(source, 'world.dat');
      writeFileSync(file, data);
      const tp = await filesPage();
      const { page } = tp;
      const requests: Request[] = [];
      page.on('request', (r) => requests.push(r));
      const log: string[] = [];
      page.on('console', (m) => log.push(m.text()));
      page.on('response', (r) => {
        if (r.url().includes('/upload'))
          log.push(`${r.request().method()} ${r.status()} ${JSON.stringify(r.headers())}`);
      });
      page.on('requestfailed', (r) => log.push(`failed ${r.method()} ${r.url()} ${r.failure()?.errorText}`));
      await recordProgress(page);
      await page.getByTestId('file-picker').setInputFiles(file);
      await waitFor(() => existsSync(join(root, 'world.dat')), 'the uploaded file', {
        timeoutMs: 120_000,
      }).catch(async (err: unknown) => {
        await screenshot(page, 'files-ui-tus-upload');
        throw new Error(`${String(err)}; calls ${JSON.stringify(uploadCalls(requests))}; ${log.join(' | ')}`);
      });
      expect(readFileSync(join(root, 'world.dat')).equals(data)).toBe(true);
      await page.getByTestId('file-row-world.dat').waitFor({ timeout: 60_000 });
      const calls = uploadCalls(requests);
      expect(calls.filter((c) => c.method === 'POST' && c.url.endsWith('/upload'))).toHaveLength(1);
      expect(calls.filter((c) => c.method === 'PATCH').length).toBe(7);
      expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
      const seen = (await page.evaluate<string[]>('window.seenPercent')).map(Number);
      expect(
        seen.some((p) => p > 0 && p < 100),
        `percentages shown: ${seen.join(', ')}`,
      ).toBe(true);
      await screenshot(page, 'files-ui-tus-done');
      expect(tp.pageErrors).toEqual([]);
      await tp.context.close();
    },
  );

  it(
    'resumes after a page reload from the node’s offset, without a new creation',
    { timeout: 300_000 },
    async () => {
      const data = randomBytes(12 * MIB + 5);
      const file = join(source, 'save.dat');
      writeFileSync(file, data);
      const tp = await filesPage();
      const { page } = tp;
      // The fourth chunk never gets through: the upload is stuck at 3 MiB when the page reloads.
      let patches = 0;
      await page.route('**/upload/*', async (route) => {
        if (route.request().method() === 'PATCH' && ++patches >= 4) return; // left hanging
        await route.continue();
      });
      await page.getByTestId('file-picker').setInputFiles(file);
      await waitFor(() => patches >= 4, 'the fourth chunk', { timeoutMs: 120_000 });
      expect(await storedUploads(page)).toHaveLength(1);

      await page.unroute('**/upload/*');
      const requests: Request[] = [];
      page.on('request', (r) => requests.push(r));
      await page.reload();
      await page.getByTestId('file-upload').waitFor({ timeout: 90_000 });
      await page.getByTestId('file-picker').setInputFiles(file);
      await waitFor(() => existsSync(join(root, 'save.dat')), 'the resumed file', {
        timeoutMs: 120_000,
      }).catch(async (err: unknown) => {
        await screenshot(page, 'files-ui-tus-resume');
        throw err;
      });
      expect(readFileSync(join(root, 'save.dat')).equals(data)).toBe(true);
      const calls = uploadCalls(requests);
      expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
      const firstPatch = calls.find((c) => c.method === 'PATCH');
      expect(Number(firstPatch?.offset)).toBe(3 * MIB);
      // Finished: its address is no longer kept.
      await waitFor(async () => (await storedUploads(page)).length === 0, 'the stored address to be dropped');
      expect(tp.pageErrors).toEqual([]);
      await tp.context.close();
    },
  );
});
