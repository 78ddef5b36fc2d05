/**
 * The SFTP card in Chromium against a real panel and daemon: the OpenSSH-friendly user name first with the
 * `email|id` form beside it, copy buttons that draw an icon (and copy), the `sftp` command and ssh-config
 * block. OpenSSH logging in with `email#id` is proven by e2e/files-sftp.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, openSignedIn, screenshot } from './helpers/browser';
import { createFakeGameServer, startDaemonFromDeployment, type NodeDaemon } from './helpers/daemon-node';
import { createFirstAdmin, panelApi, startTestPanel, type Account, type TestPanel } from './helpers/panel';

const run = browserAvailable('files ui sftp') ? describe : describe.skip;

run('SFTP card', () => {
  let live: { panel: TestPanel; admin: Account; nodeId: string } & NodeDaemon;
  let browser: Browser;
  let page: Page;
  let serverId: string;

  beforeAll(async () => {
    const panel = await startTestPanel();
    const admin = await createFirstAdmin(panel);
    const node = {
      name: 'sftp-card',
      publicHost: '127.0.0.1',
      publicPort: 1,
      privateHost: '127.0.0.1',
      privatePort: 1,
    };
    const { id: nodeId } = await panelApi<{ id: string }>(panel, admin.session, 'POST', '/api/nodes', {
      ...node,
      sftpPort: 2,
    });
    // The rotated credential's secret lets the daemon ask the panel about SFTP logins.
    const deployment = await panelApi<{ config: Record<string, unknown>; clientSecret: string }>(
      panel,
      admin.session,
      'POST',
      `/api/nodes/${nodeId}/deployment/rotate`,
    );
    const started = await startDaemonFromDeployment(deployment.config, {
      panelUrl: panel.url,
      sftp: { host: '127.0.0.1', port: 0, clientSecret: deployment.clientSecret },
    });
    live = { panel, admin, nodeId, ...started };
    const sftpPort = started.daemon.sftpPort;
    if (!sftpPort) throw new Error('the daemon serves no SFTP');
    const port = started.daemon.port;
    await panelApi(panel, admin.session, 'PUT', `/api/nodes/${nodeId}`, {
      privatePort: port,
      publicPort: port,
      sftpPort,
    });
    serverId = await createFakeGameServer(live, 'sftp card');
    browser = await launchBrowser();
    ({ page } = await openSignedIn(browser, live.panel.url, live.admin, `/server/${serverId}?tab=files`));
    await page.getByTestId('sftp-card').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await live?.daemon.close();
    await live?.panel.stop();
  });

  it('shows email#id first and email|id beside it, with the node host and SFTP port', async () => {
    const { email } = live.admin;
    // Nothing half-filled ("#id" without the e-mail) is shown while the account loads.
    await page.getByTestId('sftp-username').waitFor();
    expect(await page.getByTestId('sftp-username').textContent()).toBe(`${email}#${serverId}`);
    expect(await page.getByTestId('sftp-username-alt').textContent()).toBe(`${email}|${serverId}`);
    expect(await page.getByTestId('sftp-address').textContent()).toBe(`127.0.0.1:${live.daemon.sftpPort}`);
    expect(await page.getByTestId('sftp-connect').getAttribute('href')).toBe(
      `sftp://${encodeURIComponent(`${email}#${serverId}`)}@127.0.0.1:${live.daemon.sftpPort}`,
    );
  });

  it('draws a visible icon in every copy button and confirms a copy', async () => {
    const buttons = await page.getByTestId('sftp-card').locator('[data-testid$="-copy"]').all();
    expect(buttons.length).toBe(5);
    for (const button of buttons) {
      const box = await button.locator('svg path').boundingBox();
      expect(box && box.width > 4 && box.height > 4).toBe(true);
      expect(((await button.textContent()) ?? '').trim()).toBe('');
    }
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByTestId('sftp-command-copy').click();
    await page.getByTestId('sftp-command-copied').waitFor();
    const copied = await page.evaluate('navigator.clipboard.readText()');
    expect(copied).toBe(await page.getByTestId('sftp-command').textContent());
    await screenshot(page, 'files-ui-sftp-card');
  });

  it('shows a ready sftp command and an ssh-config block for the same user, host and port', async () => {
    const user = `${live.admin.email}#${serverId}`;
    const port = live.daemon.sftpPort;
    expect(await page.getByTestId('sftp-command').textContent()).toBe(`sftp -P ${port} '${user}@127.0.0.1'`);
    expect(await page.getByTestId('sftp-ssh-config').textContent()).toBe(
      `Host hearth-${serverId}\n  HostName 127.0.0.1\n  Port ${port}\n  User ${user}`,
    );
  });
});
