/**
 * Node and server screens in Chromium against the real panel and a real daemon: add a node
 * and see it listed, create a server from a template, install, start, online, stop, rename, settings, users,
 * admin switches, a view-only user, delete. The daemon is started from the node's deployment config.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningDaemon } from '@hearth/daemon';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { browserAvailable, screenshot } from './helpers/browser';
import { BrowserSuite } from './helpers/browser-suite';
import { panelApi, startDaemonFromDeployment } from './helpers/daemon-node';
import { createFirstAdmin, type Account } from './helpers/panel';
import { choose, createAndInstall, field, startFromPage, statusIs } from './helpers/server-ui';

const canRun = browserAvailable('server screens');

describe.runIf(canRun)('node and server screens in Chromium', () => {
  let suite: BrowserSuite;
  let admin: Account;
  let daemon: RunningDaemon | undefined;
  let nodeId = '';
  let serverId = '';
  let nodeConfig: Record<string, unknown> = {};

  const call = <T>(method: string, path: string, body?: unknown, session = admin.session) =>
    panelApi<T>(suite.panel, session, method, path, body);

  const open = (path: string, who: { session: string; scopes: string[] } = admin) => suite.open(who, path);
  const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text });

  beforeAll(async () => {
    suite = await BrowserSuite.start();
    admin = await createFirstAdmin(suite.panel);
    const { run, ...rest } = fakeGameDefinition();
    await call('PUT', '/api/templates/fake-game', {
      ...rest,
      run,
      data: { ...rest.data, motd: { type: 'boolean', value: false, display: 'Greeting', userEdit: true } },
      supportedEnvironments: [{ type: 'standard' }],
    });
  });

  afterAll(() => suite?.close(async () => daemon?.close()));

  it('adds a node in the browser and lists it', async () => {
    const page = await open('/addnode');
    await field(page, 'Name').fill('node-a');
    await field(page, 'Public host').fill('127.0.0.1');
    await field(page, 'Public port').fill('1');
    await field(page, 'SFTP port').fill('1');
    await page.getByRole('button', { name: 'Create node' }).click();
    // Refused (client check or the panel's ErrFieldEqual): still on the add page.
    await page
      .getByText(/SFTP port must differ|must not be equal|cannot be the same/i)
      .first()
      .waitFor();
    expect(page.url()).toContain('/addnode');
    await field(page, 'SFTP port').fill('2');
    await page.getByRole('button', { name: 'Create node' }).click();
    await toast(page, 'Node created').waitFor();
    await page.waitForURL(/\/node\/[^/]+$/);
    nodeId = decodeURIComponent(page.url().split('/node/')[1] ?? '');
    // The creation answer carries a complete node.json (secret and pinned certificate), flagged as just issued.
    await page.getByTestId('deployment-issued').waitFor();
    const first = JSON.parse((await page.getByTestId('deployment-config').textContent()) ?? '{}') as {
      nodeId?: string;
      sftp?: { clientSecret?: string };
    };
    expect(first.nodeId).toBe(nodeId);
    expect(first.sftp?.clientSecret).toMatch(/\S{16,}/);
    await screenshot(page, 'node-edit');
    await page.reload();
    await page.getByTestId('deployment-config').waitFor();
    // Shown again in full to deployers (the panel keeps the secret sealed), no longer flagged as new.
    expect(await page.getByTestId('deployment-issued').count()).toBe(0);
    const again = JSON.parse((await page.getByTestId('deployment-config').textContent()) ?? '{}') as {
      sftp?: { clientSecret?: string };
      tls?: { certPem?: string };
    };
    expect(again.sftp?.clientSecret).toBe(first.sftp?.clientSecret);
    expect(again.tls?.certPem).toContain('BEGIN CERTIFICATE');
    await page.getByTestId('deployment-fingerprint').waitFor();
    // The one-step install (docs/operations.md § Remote node): this node's package route and its credential.
    const steps = (await page.getByTestId('deployment-install').textContent()) ?? '';
    expect(steps).toContain(`/api/nodes/${nodeId}/package`);
    expect(steps).toContain(`.node_${nodeId}:${first.sftp?.clientSecret ?? ''}`);
    expect(steps).toContain('systemctl enable --now hearth-daemon.service');
    // The link mode is in the node's settings; choosing plain HTTP warns before anything is saved.
    expect(await page.getByTestId('node-plain-warning').count()).toBe(0);
    await page.getByTestId('node-tls-mode').click();
    await page.getByRole('option', { name: 'Plain HTTP, unencrypted' }).click();
    await page.getByTestId('node-plain-warning').waitFor();
    await screenshot(page, 'node-plain-warning');
    await page.getByTestId('node-tls-mode').click();
    await page.getByRole('option', { name: "HTTPS with the node's own certificate (pinned)" }).click();
    await page.getByTestId('node-plain-warning').waitFor({ state: 'detached' });
    // Rotating warns about the running daemon, then shows the new secret once.
    await page.getByRole('button', { name: 'Rotate credential' }).click();
    await page.getByRole('dialog').getByText('must be given the new configuration').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Issue a new secret' }).click();
    await page.getByTestId('deployment-issued').waitFor();
    nodeConfig = JSON.parse((await page.getByTestId('deployment-config').textContent()) ?? '{}') as Record<
      string,
      unknown
    >;
    const rotated = (nodeConfig.sftp as { clientSecret?: string } | undefined)?.clientSecret;
    expect(rotated).toMatch(/\S{16,}/);
    expect(rotated).not.toBe(first.sftp?.clientSecret);
    await screenshot(page, 'node-rotated');
    await page.goto('/node');
    await page.getByTestId('nodes-table').getByText('node-a').waitFor();
    await screenshot(page, 'nodes-list');
  });

  it('starts the node daemon from its deployment config; the list shows it online', async () => {
    // The node.json the browser showed after rotation, as an admin would copy it to the node.
    ({ daemon } = await startDaemonFromDeployment(nodeConfig, {
      // Its SFTP server starts (the secret is there); on a free port so parallel suites do not collide.
      sftp: { ...(nodeConfig.sftp as object), host: '127.0.0.1', port: 0 },
    }));
    await call('PUT', `/api/nodes/${nodeId}`, { privatePort: daemon.port, publicPort: daemon.port });
    const page = await open('/node');
    const status = page.getByTestId(`node-status-${nodeId}`);
    // The panel caches node probes for a few seconds; reload until the fresh answer shows.
    await expect
      .poll(
        async () => {
          await page.reload();
          await status.waitFor();
          return status.getAttribute('data-status');
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBe('online');
    await screenshot(page, 'nodes-online');
  });

  it('creates a server from a template, installs, starts, sees it online and stops it', async () => {
    const page = await open('/addserver');
    await choose(page, 'Template', 'Fake game');
    await choose(page, 'Node', 'node-a');
    await page.getByLabel('Extra flags').fill('');
    await page.getByRole('button', { name: 'Create server' }).click();
    await page.getByText('This field is required').first().waitFor();
    await field(page, 'Name').fill('bad/name');
    await page.getByRole('button', { name: 'Create server' }).click();
    await page.getByText('Only letters, digits').waitFor();
    await field(page, 'Name').fill('fake one');
    await page.getByLabel('Extra flags').fill('--quiet');
    await screenshot(page, 'add-server');
    serverId = await createAndInstall(page, call, 20_000);
    await startFromPage(page);
    await screenshot(page, 'server-online');
    // Restart: shown while running, loading through stop → offline → start, then online again in a new process.
    const output = page.getByTestId('console-output');
    await output
      .getByText(/fake-game ready \(pid \d+\)/)
      .first()
      .waitFor();
    // Each process says "ready" once; the pid is no proof, since a bubblewrapped game is pid 2 of its own namespace.
    const readyLines = async () =>
      [...((await output.textContent()) ?? '').matchAll(/ready \(pid \d+\)/g)].length;
    const before = await readyLines();
    const restart = page.getByRole('button', { name: 'Restart' });
    await restart.click();
    await expect.poll(() => restart.getAttribute('data-loading')).toBe('true');
    await expect.poll(() => restart.getAttribute('data-loading'), { timeout: 20_000 }).toBeNull();
    await statusIs(page, 'online');
    await expect.poll(async () => (await readyLines()) - before, { timeout: 15_000 }).toBe(1);
    await output.getByText('fake-game: stopping').first().waitFor();
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await statusIs(page, 'offline');
    await page.goto('/server');
    await page.getByTestId('servers-table').getByText('fake one').waitFor();
    expect(await page.getByTestId('servers-table').textContent()).toContain('node-a');
    await screenshot(page, 'servers-list');
  });

  it('renames, saves a setting, and edits users (add, cancel, save)', async () => {
    const page = await open(`/server/${serverId}`);
    await page.getByRole('button', { name: 'Rename server' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('renamed one');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('server-name').textContent()).toBe('renamed one');

    await page.keyboard.press('t');
    await page.keyboard.press('s');
    await page.getByTestId('settings-tab').waitFor();
    await page.getByLabel('Extra flags').fill('--loud');
    await page.getByTestId('settings-tab').getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Saved').waitFor();
    const data = await call<{ data: Record<string, { value: unknown }> }>(
      'GET',
      `/proxy/daemon/server/${serverId}/data`,
    );
    expect(data.data.flags?.value).toBe('--loud');

    await page.getByTestId('server-tabs').getByText('Users').click();
    const tab = page.getByTestId('users-tab');
    await tab.getByRole('button', { name: 'Add user' }).click();
    await toast(page, 'You must provide the email of the user you want to add').waitFor();
    await tab.getByLabel('E-mail').fill('friend@example.com');
    await tab.getByRole('button', { name: 'Add user' }).click();
    const entry = page.locator('[data-email="friend@example.com"]');
    await entry.getByRole('button', { name: 'Cancel' }).click();
    await entry.waitFor({ state: 'detached' });
    await tab.getByLabel('E-mail').fill('friend@example.com');
    await tab.getByRole('button', { name: 'Add user' }).click();
    // A plain click: the tab bar sits above the tab, so nothing covers the entry's last row.
    await entry.getByLabel('View console').click();
    expect(await entry.getByLabel('View console').isChecked()).toBe(true);
    await screenshot(page, 'server-users');
    await entry.getByRole('button', { name: 'Save' }).click();
    // friend@example.com has no account: the answer is an invitation, shown with its link (no e-mail provider
    // here, so the dialog says nothing was sent) instead of the saved toast.
    const invited = page.getByRole('dialog').getByTestId('invitation-result');
    await invited.waitFor();
    expect(await invited.getAttribute('data-mail')).toBe('noProvider');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    const users = await call<Array<{ email: string; viewServerConsole: boolean }>>(
      'GET',
      `/api/servers/${serverId}/user`,
    );
    expect(users.find((u) => u.email === 'friend@example.com')?.viewServerConsole).toBe(true);
  });

  it('admin switches load, change one flag, save and reload', async () => {
    const page = await open(`/server/${serverId}`);
    // `t a` right away (the page keeps re-rendering with live updates; the binding must survive that).
    await page.getByTestId('tab-console').waitFor();
    await page.keyboard.press('t');
    await page.keyboard.press('a');
    await page.getByTestId('tab-admin').waitFor();
    expect(page.url()).toContain('tab=admin');
    const autostart = page.getByRole('switch', { name: 'Autostart' });
    await expect.poll(() => autostart.isEnabled()).toBe(true);
    // Keyboard, not a pointer click at computed coordinates: the tab's cards may still settle after the switch.
    await autostart.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => autostart.isChecked()).toBe(true);
    await expect.poll(() => autostart.isEnabled()).toBe(true);
    const definition = await call<{ run: { autostart: boolean; autorecover: boolean } }>(
      'GET',
      `/proxy/daemon/server/${serverId}`,
    );
    expect(definition.run).toMatchObject({ autostart: true, autorecover: true });
    await page.getByRole('button', { name: 'Reload' }).click();
    await toast(page, 'Server data reloaded').waitFor();
    await page.getByTestId('oauth2-card').waitFor();
    await screenshot(page, 'server-admin');
  });

  it('a view-only user sees no controls, rename or tabs they lack', async () => {
    const viewer = { username: 'viewer', email: 'viewer@example.com', password: 'correct-horse-battery' };
    const created = await call<{ id: string }>('POST', '/api/users', viewer);
    await call('PUT', `/api/users/${created.id}/perms`, { viewServers: true });
    await call('PUT', `/api/servers/${serverId}/user/${viewer.email}`, { viewServerStats: true });
    const login = await fetch(`${suite.panel.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: viewer.email, password: viewer.password }),
    });
    const session = (await login.json()) as { session: string; scopes: string[] };
    const page = await open(`/server/${serverId}`, session);
    await page.getByTestId('server-name').waitFor();
    expect(await page.getByTestId('server-controls').getByRole('button').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Rename server' }).count()).toBe(0);
    const tabs = await page.getByTestId('server-tabs').getByRole('tab').allTextContents();
    expect(tabs).toEqual(['Statistics']);
    await screenshot(page, 'server-view-only');
  });

  it('a creator without viewNodes picks the node and creates a server', async () => {
    const who = { username: 'creator', email: 'creator@example.com', password: 'correct-horse-battery' };
    const created = await call<{ id: string }>('POST', '/api/users', who);
    await call('PUT', `/api/users/${created.id}/perms`, {
      viewServers: true,
      createServers: true,
      viewTemplates: true,
    });
    const login = await fetch(`${suite.panel.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: who.email, password: who.password }),
    });
    const session = (await login.json()) as { session: string; scopes: string[] };
    const page = await open('/addserver', session);
    await choose(page, 'Template', 'Fake game');
    await choose(page, 'Node', 'node-a');
    await field(page, 'Name').fill('creators one');
    await page.getByLabel('Extra flags').fill('--quiet');
    await page.getByRole('button', { name: 'Create server' }).click();
    await page.getByRole('button', { name: 'Install now' }).waitFor();
    const list = await call<{ servers: Array<{ id: string; name: string }> }>(
      'GET',
      '/api/servers?limit=50',
      undefined,
      session.session,
    );
    const mine = list.servers.find((x) => x.name === 'creators one');
    expect(mine).toBeDefined();
    await call('DELETE', `/api/servers/${mine?.id ?? ''}`);
  });

  it('a minecraft-type server shows the Minecraft card with its join address', async () => {
    const { id: _id, ...template } = await call<Record<string, unknown>>('GET', '/api/templates/fake-game');
    const { id } = await call<{ id: string }>('POST', '/api/servers', {
      ...template,
      type: 'minecraft-java',
      name: 'blocky',
      node: nodeId,
      users: [],
      environment: { type: 'standard' },
    });
    const page = await open(`/server/${id}`);
    const card = page.getByTestId('type-view-minecraft');
    await card.waitFor();
    expect(await card.textContent()).toContain('minecraft-java');
    expect(await card.textContent()).toContain('node-a');
    expect(await page.getByTestId('type-view-generic').count()).toBe(0);
    await screenshot(page, 'server-minecraft');
    await call('DELETE', `/api/servers/${id}`);
  });

  it('deletes the server after confirmation and returns to the list', async () => {
    const page = await open(`/server/${serverId}?tab=admin`);
    await page.getByTestId('delete-server').getByRole('button', { name: 'Delete server' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete server' }).click();
    await toast(page, 'Server deleted').waitFor();
    await page.waitForURL(/\/server$/);
    expect(await page.getByTestId('servers-table').getByText('renamed one').count()).toBe(0);
  });
});
