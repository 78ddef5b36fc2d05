/**
 * The Backups tab's policy hooks editor and clone picker in Chromium against a real panel, a real daemon and real
 * restic (docs/backups.md § Hooks, § Clone): custom console lines before and after a backup, the line to wait for
 * and the timeout — a value the daemon would refuse is shown under its field and nothing is saved — then saved
 * into the daemon's policy; an administrator restores a backup into another stopped server of the same node
 * picked from a list, or into a new server named in the dialog (made from the source's definition; the browser
 * then opens it), and a user who may restore but is not an administrator is offered no such choice. "Who"
 * shows the caller's own backups by name and e-mail; another user's stay an id for a non-administrator.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { BackupCreated, BackupList, BackupPolicyView } from '@hearth/contract';
import { browserAvailable, launchBrowser, openSignedIn, screenshot } from './helpers/browser';
import {
  createFakeGameServer,
  panelApi,
  signInServerViewer,
  startPanelWithDaemon,
  type PanelWithDaemon,
} from './helpers/daemon-node';

const run = browserAvailable('backups ui admin') ? describe : describe.skip;

run('backups tab: hooks editor and clone picker', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let source: string;
  let clone: string;
  let page: Page;
  let pageErrors: string[] = [];
  const proxy = (id: string, path: string) => `/proxy/daemon/server/${id}${path}`;

  beforeAll(async () => {
    live = await startPanelWithDaemon('backups-admin-node');
    // Both stopped: a restore needs a stopped target (ErrRestoreServerRunning otherwise).
    source = await createFakeGameServer(live, 'clone source');
    clone = await createFakeGameServer(live, 'clone target');
    await writeFile(join(live.serversDir, source, 'world.txt'), 'the source world');
    await writeFile(join(live.serversDir, clone, 'world.txt'), 'the target world');
    browser = await launchBrowser();
    ({ page, pageErrors } = await openSignedIn(browser, live.panel.url, live.admin));
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
  });

  it('edits custom hooks, shows what the daemon would refuse, saves the lines', async () => {
    await page.goto(`/server/${source}?tab=backups`);
    const policy = page.getByTestId('backup-policy');
    // The first page load fetches the app's chunks: slow when the machine is loaded (a bound, not a check).
    await page.getByTestId('backups-tab').getByText('No backups yet.').waitFor({ timeout: 120_000 });
    await policy.getByText('Custom', { exact: true }).click({ timeout: 120_000 });
    await policy.getByTestId('backup-hooks-pre').fill('save-off\nsave-all flush\n');
    await policy.getByTestId('backup-hooks-waitFor').fill('x'.repeat(201));
    await policy.getByText('At most 200 characters').waitFor();
    expect(await policy.getByTestId('backup-policy-save').isDisabled()).toBe(true);
    await policy.getByTestId('backup-hooks-waitFor').fill('Saved the game');
    await policy.getByTestId('backup-hooks-timeout').fill('0');
    await policy.getByText('From 1 to 3600 seconds').waitFor();
    expect(await policy.getByTestId('backup-policy-save').isDisabled()).toBe(true);
    await policy.getByTestId('backup-hooks-timeout').fill('90');
    await policy.getByText('From 1 to 3600 seconds').waitFor({ state: 'detached' });
    await policy.getByTestId('backup-hooks-post').fill('save-on');
    await screenshot(page, 'backups-hooks-editor');
    await policy.getByTestId('backup-policy-save').click();
    await page.getByText('Backup policy saved').first().waitFor();
    const stored = await panelApi<BackupPolicyView>(
      live.panel,
      live.admin.session,
      'GET',
      proxy(source, '/backup-policy'),
    );
    expect(stored.hooks).toEqual({
      pre: ['save-off', 'save-all flush'],
      waitFor: 'Saved the game',
      post: ['save-on'],
      timeoutSeconds: 90,
    });
    // The editor opens on the stored lines again.
    await page.reload();
    await policy.getByTestId('backup-hooks-pre').waitFor({ timeout: 120_000 });
    expect(await policy.getByTestId('backup-hooks-pre').inputValue()).toBe('save-off\nsave-all flush');
    expect(pageErrors).toEqual([]);
  });

  it('an administrator restores a backup into another stopped server of the node', async () => {
    const { id } = await panelApi<BackupCreated>(
      live.panel,
      live.admin.session,
      'POST',
      proxy(source, '/backup'),
    );
    const list = await panelApi<BackupList>(live.panel, live.admin.session, 'GET', proxy(source, '/backup'));
    const shortId = list.backups.find((b) => b.id === id)?.shortId ?? '';
    await page.goto(`/server/${source}?tab=backups`);
    const row = page.getByTestId(`backup-${shortId}`);
    // Who asked: the caller's own backup by name and e-mail, not a bare id.
    await row
      .getByTestId('backup-figures')
      .getByText(`by admin (${live.admin.email})`)
      .waitFor({ timeout: 90_000 });
    await row.getByTestId('backup-restore').click({ timeout: 90_000 });
    const dialog = page.getByTestId('backup-restore-dialog');
    await dialog.getByTestId('backup-clone-into').click();
    await page.getByRole('option', { name: `clone target (${clone})` }).click();
    await screenshot(page, 'backups-clone-picker');
    await page.getByTestId('backup-restore-confirm').click();
    await page.getByText('Restore complete').first().waitFor();
    expect(await readFile(join(live.serversDir, clone, 'world.txt'), 'utf8')).toBe('the source world');
    expect(await readFile(join(live.serversDir, source, 'world.txt'), 'utf8')).toBe('the source world');
    expect(pageErrors).toEqual([]);
  });

  it('an administrator restores a backup into a new server named in the dialog, then lands on it', async () => {
    const { id } = await panelApi<BackupCreated>(
      live.panel,
      live.admin.session,
      'POST',
      proxy(source, '/backup'),
    );
    const list = await panelApi<BackupList>(live.panel, live.admin.session, 'GET', proxy(source, '/backup'));
    const shortId = list.backups.find((b) => b.id === id)?.shortId ?? '';
    await page.goto(`/server/${source}?tab=backups`);
    await page.getByTestId(`backup-${shortId}`).getByTestId('backup-restore').click({ timeout: 90_000 });
    const dialog = page.getByTestId('backup-restore-dialog');
    await dialog.getByTestId('backup-clone-into').click();
    await page.getByRole('option', { name: 'A new server…' }).click();
    const name = dialog.getByTestId('backup-clone-name');
    // No name, or one the panel refuses: nothing can be sent.
    expect(await dialog.getByTestId('backup-restore-confirm').isDisabled()).toBe(true);
    await name.fill('bad/name');
    await dialog.getByText('Letters, digits, spaces, _ . and - only (at most 100)').waitFor();
    expect(await dialog.getByTestId('backup-restore-confirm').isDisabled()).toBe(true);
    await name.fill('clone new');
    await screenshot(page, 'backups-clone-new-server');
    await dialog.getByTestId('backup-restore-confirm').click();
    await page.getByText('Restored into the new server clone new').first().waitFor({ timeout: 120_000 });
    // The browser opens the new server's page.
    await page.waitForURL((url) => /^\/server\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith(source), {
      timeout: 60_000,
    });
    const created = new URL(page.url()).pathname.split('/')[2] ?? '';
    const detail = await panelApi<{ server: { name: string; node: { id: string } } }>(
      live.panel,
      live.admin.session,
      'GET',
      `/api/servers/${created}`,
    );
    const origin = await panelApi<{ server: { node: { id: string } } }>(
      live.panel,
      live.admin.session,
      'GET',
      `/api/servers/${source}`,
    );
    expect(detail.server.name).toBe('clone new');
    expect(detail.server.node.id).toBe(origin.server.node.id);
    expect(await readFile(join(live.serversDir, created, 'world.txt'), 'utf8')).toBe('the source world');
    expect(pageErrors).toEqual([]);
  });

  it('a user who may restore but is no administrator gets no clone picker', async () => {
    const user = await signInServerViewer(live, source, {
      viewServerBackups: true,
      restoreServerBackups: true,
    });
    const tp = await openSignedIn(browser, live.panel.url, user, `/server/${source}?tab=backups`);
    try {
      await tp.page.getByTestId('backup-restore').first().click({ timeout: 90_000 });
      await tp.page
        .getByTestId('backup-restore-dialog')
        .getByText('From the backup of', { exact: false })
        .waitFor();
      expect(await tp.page.getByTestId('backup-clone-into').count()).toBe(0);
      // Someone else's backup: its id, never the administrator's e-mail (docs/backups.md § In the browser).
      await tp.page.keyboard.press('Escape');
      const figures = tp.page.getByTestId('backup-figures').first();
      await figures.getByText(/ · by \S+$/).waitFor();
      expect(await figures.textContent()).not.toContain(live.admin.email);
      expect(tp.pageErrors).toEqual([]);
    } finally {
      await tp.context.close();
    }
  });
});
