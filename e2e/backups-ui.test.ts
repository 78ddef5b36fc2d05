/**
 * The Backups tab in Chromium against a real panel, a real daemon and real restic with the node's local
 * repository (docs/backups.md): an administrator backs up (the socket's figures show while it runs), sees the
 * snapshot listed, browses it, restores one changed file, downloads the snapshot, locks it (no Delete while
 * locked), unlocks and deletes it. A user holding only viewServerBackups sees the list and no Create, Restore,
 * Lock, Delete or download, and no live socket (its figures stay a console holder's). On the Node page an administrator moves the node's repository to another local
 * folder and runs a check, whose result the card shows — passed, then failed once a pack of the repository is
 * removed (a tampered repository: docs/backups.md § Faults).
 */
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import WebSocket from 'ws';
import type { BackupList, BackupNodeStatus } from '@hearth/contract';
import { browserAvailable, launchBrowser, openSignedIn, readInPage, screenshot } from './helpers/browser';
import {
  createFakeGameServer,
  panelApi,
  signInServerViewer,
  startPanelWithDaemon,
  type PanelWithDaemon,
} from './helpers/daemon-node';

const run = browserAvailable('backups ui') ? describe : describe.skip;

/** The HTTP status the panel answers a live-socket upgrade with for this session (101 when it opens). */
function socketStatus(panelUrl: string, serverId: string, session: string): Promise<number> {
  const ws = new WebSocket(`${panelUrl.replace('http', 'ws')}/proxy/daemon/socket/${serverId}`, {
    headers: { authorization: `Bearer ${session}` },
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', reject);
  });
}

/** Notes in the page whether the live figures were ever shown (they go away when the backup is done). */
const watchFigures = (page: Page) =>
  page.evaluate(`(() => {
    window.__figures = null;
    new MutationObserver(() => {
      const el = document.querySelector('[data-testid="backup-progress-figures"]');
      if (el && el.textContent) window.__figures = el.textContent;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  })()`);

run('backups tab', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let serverId: string;
  let page: Page;
  let pageErrors: string[] = [];
  const world = () => join(live.serversDir, serverId, 'world.txt');

  beforeAll(async () => {
    live = await startPanelWithDaemon('backups-node');
    // Stopped: a restore needs a stopped server (ErrRestoreServerRunning otherwise).
    serverId = await createFakeGameServer(live, 'backups ui');
    await writeFile(world(), 'the world as saved');
    browser = await launchBrowser();
    ({ page, pageErrors } = await openSignedIn(browser, live.panel.url, live.admin));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
  });

  const listOnDaemon = () =>
    panelApi<BackupList>(live.panel, live.admin.session, 'GET', `/proxy/daemon/server/${serverId}/backup`);

  it('backs up with progress, browses, restores a file, downloads, locks and deletes', async () => {
    await page.goto(`/server/${serverId}?tab=backups`);
    // The first page load fetches the app's chunks: slow when the machine is loaded (a bound, not a check).
    await page.getByTestId('backups-tab').getByText('No backups yet.').waitFor({ timeout: 90_000 });
    await watchFigures(page);
    await page.getByTestId('backup-create').click();
    await page.getByText('Backup written').first().waitFor();
    expect(await readInPage(page, 'window.__figures')).toMatch(/ of \d+ files · /);
    const [backup] = (await listOnDaemon()).backups;
    expect(backup).toMatchObject({ trigger: 'manual', locked: false });
    const row = page.getByTestId(`backup-${backup?.shortId ?? ''}`);
    await row.getByText('Manual').waitFor();
    // A list read while the daemon was still recording the snapshot's figures shows dashes; the next read has them.
    await row
      .getByTestId('backup-figures')
      .getByText(/Added .+ · total .+ · \d+ files/)
      .waitFor({ timeout: 60_000 });
    await page.getByTestId('backup-last').getByText('succeeded').waitFor();

    // Changed since the backup; the restore of that one file brings the saved text back.
    await writeFile(world(), 'the world, changed');
    await row.getByTestId('backup-browse').click();
    const browser_ = page.getByTestId('backup-browser');
    const entry = browser_.getByTestId('backup-entry-world.txt');
    await entry.getByRole('checkbox').check();
    await screenshot(page, 'backups-browse');
    await browser_.getByTestId('backup-restore-chosen').click();
    const dialog = page.getByTestId('backup-restore-dialog');
    await dialog.getByText('world.txt').waitFor();
    await dialog.getByText('The server must be stopped.', { exact: false }).waitFor();
    await page.getByTestId('backup-restore-confirm').click();
    await page.getByText('Restore complete').first().waitFor();
    expect(await readFile(world(), 'utf8')).toBe('the world as saved');
    await page.getByTestId('backup-last').getByText('Last restore').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByTestId('backup-download-tar.gz').click(),
    ]);
    const saved = await download.path();
    expect((await readFile(saved)).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

    await row.getByTestId('backup-lock').click();
    await row.getByText('Locked').waitFor();
    expect(await row.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect((await listOnDaemon()).backups[0]?.locked).toBe(true);
    await row.getByTestId('backup-lock').click();
    await row.getByText('Locked').waitFor({ state: 'detached' });
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Backup deleted').first().waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await listOnDaemon()).backups).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('a user with only the view flag sees the list, and no action', async () => {
    await panelApi(live.panel, live.admin.session, 'POST', `/proxy/daemon/server/${serverId}/backup`);
    const viewer = await signInServerViewer(live, serverId, { viewServerBackups: true });
    const tp = await openSignedIn(browser, live.panel.url, viewer, `/server/${serverId}?tab=backups`);
    try {
      const tab = tp.page.getByTestId('backups-tab');
      await tab.locator('.backup-row').first().waitFor();
      await tab.getByTestId('backup-browse').first().waitFor();
      for (const id of ['backup-create', 'backup-restore', 'backup-lock', 'backup-download-tar.gz'])
        expect(await tp.page.getByTestId(id).count(), id).toBe(0);
      expect(await tab.getByRole('button', { name: 'Delete' }).count()).toBe(0);
      expect(await tp.page.getByTestId('backup-policy-save').count()).toBe(0);
      await tab.getByTestId('backup-browse').first().click();
      await tp.page.getByTestId('backup-entry-world.txt').waitFor();
      expect(await tp.page.getByTestId('backup-restore-chosen').count()).toBe(0);
      expect(await tp.page.getByTestId('backup-entry-download').count()).toBe(0);
      // The live socket (console, state and the backup figures) stays a console holder's: this user follows an
      // operation through the list (docs/backups.md § Progress); the administrator's socket opens.
      expect(await socketStatus(live.panel.url, serverId, viewer.session)).toBe(403);
      expect(await socketStatus(live.panel.url, serverId, live.admin.session)).toBe(101);
      expect(tp.pageErrors).toEqual([]);
    } finally {
      await tp.context.close();
    }
  });

  // Two restic checks and a backup: minutes when the machine is busy (the unit suites run beside e2e in CI).
  it(
    'the node card saves a local destination and shows a check result, passed and then failed',
    { timeout: 360_000 },
    async () => {
      const folder = await mkdtemp(join(tmpdir(), 'hearth-ui-repo-'));
      try {
        await page.goto(`/node/${live.nodeId}`);
        const card = page.getByTestId('node-backups');
        await card.getByText('No repository check yet').waitFor();
        await card.getByTestId('node-backups-path').fill(folder);
        await card.getByTestId('node-backups-save').click();
        await page.getByText('Backup destination saved').first().waitFor();
        const status = await panelApi<BackupNodeStatus>(
          live.panel,
          live.admin.session,
          'GET',
          `/api/nodes/${live.nodeId}/backups`,
        );
        expect(status.destination).toMatchObject({ type: 'local', settings: { path: folder } });
        await card.getByTestId('node-backups-check').click();
        await page.getByText('Check finished').first().waitFor();
        await card.getByTestId('node-backups-last-check').getByText('passed').waitFor();
        await screenshot(page, 'backups-node-card');
        // A tampered repository (bytes appended to a pack): `check` reports the size that no longer matches the
        // index. A removed pack would do too, but restic 0.14 retries loading a missing pack for minutes first.
        await panelApi(live.panel, live.admin.session, 'POST', `/proxy/daemon/server/${serverId}/backup`);
        const packs = (await readdir(join(folder, 'data'), { recursive: true })).filter((f) =>
          /[0-9a-f]{64}$/.test(f),
        );
        expect(packs.length).toBeGreaterThan(0);
        await appendFile(join(folder, 'data', packs[0] ?? ''), 'tampered');
        await card.getByTestId('node-backups-check').click();
        await card
          .getByTestId('node-backups-last-check')
          .getByText(/^Last check: .*, failed: /)
          .waitFor({ timeout: 120_000 });
        await screenshot(page, 'backups-node-card-check-failed');
        expect(pageErrors).toEqual([]);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
  );
});
