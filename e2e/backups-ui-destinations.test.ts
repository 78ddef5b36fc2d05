/**
 * The Backups tab in Chromium against a real panel, a real daemon and real restic, for each destination other
 * than the node's local folder (docs/backups.md § Destinations): OpenSSH `sshd` (SFTP), s3rver (S3) and
 * `rclone serve restic` (REST), started on loopback by the daemon tests' helpers. For each, an administrator
 * sets the node's destination in the Node page's backups card, then on the server's Backups tab creates a
 * backup, sees it listed (the only one: the list is the new repository's), browses into a folder, downloads one
 * file of it as .tar.gz (the archive holds the file's saved text) and restores that file after it changed on
 * disk (the saved text is back) — and the repository really is on the destination (restic's `config` file in
 * the SFTP folder, in the S3 bucket, in the REST server's folder). One panel, daemon and server for all three.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { BackupList, BackupNodeStatus } from '@hearth/contract';
import {
  restDestination,
  s3Destination,
  sftpDestination,
  type Destination,
} from '../apps/daemon/test/helpers/backup-destinations';
import { browserAvailable, launchBrowser, openSignedIn, screenshot } from './helpers/browser';
import {
  createFakeGameServer,
  panelApi,
  startPanelWithDaemon,
  type PanelWithDaemon,
} from './helpers/daemon-node';

const run = browserAvailable('backups ui destinations') ? describe : describe.skip;

const kinds = [
  ['sftp', 'SFTP server', sftpDestination],
  ['s3', 'S3-compatible storage', s3Destination],
  ['rest', 'restic REST server', restDestination],
] as const;

/** Every file under `dir`, relative to it. */
const filesUnder = async (dir: string) => (await readdir(dir, { recursive: true })).map(String);

run('backups tab with each remote destination', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let serverId: string;
  let page: Page;
  let pageErrors: string[] = [];
  const destinations: Destination[] = [];
  const level = () => join(live.serversDir, serverId, 'world', 'level.dat');

  beforeAll(async () => {
    live = await startPanelWithDaemon('backups-destinations-node');
    // Stopped: a restore needs a stopped server (ErrRestoreServerRunning otherwise).
    serverId = await createFakeGameServer(live, 'backups destinations');
    await mkdir(join(live.serversDir, serverId, 'world'), { recursive: true });
    browser = await launchBrowser();
    ({ page, pageErrors } = await openSignedIn(browser, live.panel.url, live.admin));
    // Each step waits for an answer that goes through restic and a destination server: minutes at worst on a
    // loaded machine (a bound against a hang, not a check).
    page.setDefaultTimeout(120_000);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
    for (const destination of destinations) await destination.close();
  });

  describe.each(kinds)('%s', (kind, label, make) => {
    let destination: Destination;

    it('the node card saves the destination', { timeout: 240_000 }, async () => {
      destination = await make();
      destinations.push(destination);
      await page.goto(`/node/${live.nodeId}`);
      const card = page.getByTestId('node-backups');
      await card.getByTestId('node-backups-save').waitFor();
      await card.getByTestId('node-backups-type').getByText(label, { exact: true }).click();
      // Every field of the type, including those left empty (a CA another type's form kept is cleared).
      for (const field of await card.locator('input[data-testid], textarea[data-testid]').all()) {
        const name = ((await field.getAttribute('data-testid')) ?? '').replace(/^node-backups-/, '');
        await field.fill(name in destination.body ? String(destination.body[name]) : '');
      }
      await screenshot(page, `backups-node-card-${kind}`);
      await card.getByTestId('node-backups-save').click();
      await page.getByText('Backup destination saved').first().waitFor();
      const status = await panelApi<BackupNodeStatus>(
        live.panel,
        live.admin.session,
        'GET',
        `/api/nodes/${live.nodeId}/backups`,
      );
      expect(status.destination.type).toBe(kind);
      const secrets = ['privateKey', 'secretAccessKey', 'password'].filter((k) => k in destination.body);
      expect(status.destination.secrets).toEqual(secrets);
      expect(pageErrors).toEqual([]);
    });

    it(
      'backs up, lists, browses, downloads a file and restores it, through the destination',
      {
        timeout: 300_000,
      },
      async () => {
        await writeFile(level(), `level saved on ${kind}`);
        await page.goto(`/server/${serverId}?tab=backups`);
        // The list is the new repository's: empty until this destination's first backup.
        await page.getByTestId('backups-tab').getByText('No backups yet.').waitFor();
        await page.getByTestId('backup-create').click();
        await page.getByText('Backup written').first().waitFor();
        const { backups } = await panelApi<BackupList>(
          live.panel,
          live.admin.session,
          'GET',
          `/proxy/daemon/server/${serverId}/backup`,
        );
        expect(backups).toHaveLength(1);
        expect(backups[0]).toMatchObject({ trigger: 'manual', fileCount: expect.any(Number) as number });
        const row = page.getByTestId(`backup-${backups[0]?.shortId ?? ''}`);
        await row.getByText('Manual').waitFor();
        // The list polled while restic ran may show the row before its figures are recorded: they come with the
        // list read after the answer.
        await row
          .getByTestId('backup-figures')
          .getByText(/^Added .+ · total .+ · \d+ files/)
          .waitFor();

        // The repository is on the destination's side: restic's `config` file at its root.
        const stored = await filesUnder(destination.files);
        expect(
          stored.some((f) => /(^|\/)config($|\._S3rver_object$)/.test(f)),
          stored.join('\n'),
        ).toBe(true);
        expect(
          stored.some((f) => /(^|\/)snapshots\/[0-9a-f]{64}/.test(f)),
          stored.join('\n'),
        ).toBe(true);

        await writeFile(level(), 'level, changed');
        await row.getByTestId('backup-browse').click();
        const tree = page.getByTestId('backup-browser');
        await tree.getByTestId('backup-entry-world').getByText('world/').click();
        const entry = tree.getByTestId('backup-entry-level.dat');
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          entry.getByTestId('backup-entry-download').click(),
        ]);
        expect(download.suggestedFilename()).toBe('level.dat.tar.gz');
        const saved = await download.path();
        expect(execFileSync('tar', ['-xzOf', saved, 'level.dat'], { encoding: 'utf8' })).toBe(
          `level saved on ${kind}`,
        );

        await entry.getByRole('checkbox').check();
        await screenshot(page, `backups-browse-${kind}`);
        await tree.getByTestId('backup-restore-chosen').click();
        await page.getByTestId('backup-restore-dialog').getByText('world/level.dat').waitFor();
        await page.getByTestId('backup-restore-confirm').click();
        await page.getByText('Restore complete').first().waitFor();
        expect(await readFile(level(), 'utf8')).toBe(`level saved on ${kind}`);
        expect(pageErrors).toEqual([]);
      },
    );
  });
});
