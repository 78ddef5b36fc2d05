/**
 * Moving a server between nodes in Chromium (issue 19; docs/web.md § Moving a server): a real panel with two real
 * daemons started from their nodes' deployment configs. An administrator moves a running server from node A to
 * node B at 1440 px and sees the progress, then the success; the page then names node B, the server runs there
 * and its files came along. At 390 px the dialog fits the screen and moves it back. A move started before the
 * page opened (a server that ignores `stop` holds it in its stopping phase) is picked up and followed to its end.
 * A server user holding every
 * flag sees no such action (and the API refuses them). The target node stopped right before confirming: the
 * catalogued error is shown and the server stays on A, running.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverPermissions } from '@hearth/contract';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { browserAvailable, screenshot } from './helpers/browser';
import { BrowserSuite } from './helpers/browser-suite';
import {
  addNodeWithDaemon,
  createFakeGameServer,
  panelApi,
  signInServerViewer,
  type NodeDaemon,
} from './helpers/daemon-node';
import { createFirstAdmin, type Account } from './helpers/panel';
import { statusIs } from './helpers/server-ui';

const canRun = browserAvailable('transfer UI');
const LONG = 120_000;
// Two daemons in one process: the Minetest server list's fixed loopback port would collide. A server ignoring
// `stop` keeps a move in its stopping phase for the whole stop timeout: the window the pick-up test needs.
const STOP_TIMEOUT_MS = 60_000;
const NODE_OVERRIDES = { players: { serverListPort: 0 }, power: { stopTimeoutMs: STOP_TIMEOUT_MS } };

describe.runIf(canRun)('moving a server between nodes in Chromium', () => {
  let suite: BrowserSuite;
  let admin: Account;
  let a: NodeDaemon & { nodeId: string };
  let b: NodeDaemon & { nodeId: string };
  let bStopped = false;
  let serverId = '';
  // Big enough that the copy takes a moment, so the progress has something to show.
  const payload = randomBytes(32 * 1024 * 1024);

  const call = <T>(method: string, path: string, body?: unknown, session = admin.session) =>
    panelApi<T>(suite.panel, session, method, path, body);
  const nodeOf = async () =>
    (await call<{ server: { node: { id: string } } }>('GET', `/api/servers/${serverId}`)).server.node.id;
  const running = async () =>
    (await call<{ running: boolean }>('GET', `/proxy/daemon/server/${serverId}/status`)).running;

  beforeAll(async () => {
    suite = await BrowserSuite.start();
    admin = await createFirstAdmin(suite.panel);
    a = await addNodeWithDaemon(suite.panel, admin.session, 'node-a', NODE_OVERRIDES);
    b = await addNodeWithDaemon(suite.panel, admin.session, 'node-b', NODE_OVERRIDES);
    serverId = await createFakeGameServer({ panel: suite.panel, admin, nodeId: a.nodeId }, 'mover', {
      start: true,
    });
    writeFileSync(join(a.serversDir, serverId, 'world.dat'), payload);
  }, 300_000);

  afterAll(() =>
    suite?.close(async () => {
      await a?.daemon.close();
      if (!bStopped) await b?.daemon.close();
    }),
  );

  /** The server page's Admin tab at `width` px, signed in as `who`, once the live status is known. */
  async function openAdmin(width: number, who: { session: string; scopes: string[] } = admin): Promise<Page> {
    const page = await suite.open(who, `/server/${serverId}?tab=admin`);
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    await page.getByTestId('admin-tab').waitFor({ timeout: LONG });
    return page;
  }

  /** Opens the dialog and picks `target`; the current node is never offered. */
  async function pickTarget(page: Page, target: string, current: string): Promise<void> {
    await page.getByTestId('transfer-open').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('transfer-explain').waitFor();
    await dialog.getByRole('radio', { name: target }).check({ timeout: LONG });
    expect(await dialog.getByRole('radio', { name: current }).count()).toBe(0);
  }

  /** Confirms, then records each phase the dialog shows until it shows an outcome. */
  async function confirmAndWatch(page: Page): Promise<{ phases: string[]; outcome: string | null }> {
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Move server' }).click();
    const phases: string[] = [];
    const result = dialog.getByTestId('transfer-result');
    const deadline = Date.now() + 240_000;
    while ((await result.count()) === 0 && Date.now() < deadline) {
      const phase = await dialog
        .getByTestId('transfer-progress')
        .getAttribute('data-phase', { timeout: 1_000 })
        .catch(() => null);
      if (phase && phases.at(-1) !== phase) phases.push(phase);
      await page.waitForTimeout(100);
    }
    return { phases, outcome: await result.getAttribute('data-outcome', { timeout: LONG }) };
  }

  it('an admin moves the running server from node A to node B at 1440 px', { timeout: 360_000 }, async () => {
    const page = await openAdmin(1440);
    await statusIs(page, 'online', LONG);
    await pickTarget(page, 'node-b', 'node-a');
    const dialog = page.getByRole('dialog');
    for (const text of ['stopped during the copy', 'SFTP address changes', "Docker server's image"])
      await dialog.getByText(text, { exact: false }).waitFor();
    await screenshot(page, 'transfer-dialog-1440');
    const { phases, outcome } = await confirmAndWatch(page);
    expect(phases.length).toBeGreaterThan(0);
    expect(outcome).toBe('done');
    await dialog.getByText('The server is now on node-b.').waitFor();
    await screenshot(page, 'transfer-done-1440');
    await dialog.getByRole('button', { name: 'Close' }).click();
    // The page read the server again: its type view names the new node, and the live link follows it there.
    await page.locator('[data-testid^="type-view-"]', { hasText: 'node-b' }).waitFor({ timeout: LONG });
    await statusIs(page, 'online', LONG);
    expect(await nodeOf()).toBe(b.nodeId);
    await expect.poll(running, { timeout: LONG }).toBe(true);
    expect(readFileSync(join(b.serversDir, serverId, 'world.dat')).equals(payload)).toBe(true);
    expect(existsSync(join(a.serversDir, serverId))).toBe(false);
  });

  it('at 390 px the dialog fits the screen and moves the server back', { timeout: 360_000 }, async () => {
    const page = await openAdmin(390);
    await pickTarget(page, 'node-a', 'node-b');
    const dialog = page.getByRole('dialog');
    const box = await dialog.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    const scrollWidth = Number(await page.evaluate('document.documentElement.scrollWidth'));
    expect(scrollWidth).toBeLessThanOrEqual(390);
    await screenshot(page, 'transfer-dialog-390');
    const { outcome } = await confirmAndWatch(page);
    expect(outcome).toBe('done');
    await dialog.getByText('The server is now on node-a.').waitFor();
    await screenshot(page, 'transfer-done-390');
    expect(await nodeOf()).toBe(a.nodeId);
    await expect.poll(running, { timeout: LONG }).toBe(true);
  });

  it(
    'a move already running when the page opens is picked up and followed to its end',
    { timeout: 360_000 },
    async () => {
      const definition = fakeGameDefinition();
      definition.data.flags.value = '--ignore-stop';
      const body = { ...definition, name: 'stubborn', node: a.nodeId, users: [] };
      const { id } = await call<{ id: string }>('POST', '/api/servers', body);
      await call('POST', `/proxy/daemon/server/${id}/install?wait=true`);
      await call('POST', `/proxy/daemon/server/${id}/start?wait=true`);
      const started = await call<{ phase: string }>('POST', `/api/servers/${id}/transfer`, {
        node: b.nodeId,
      });
      expect(started.phase).not.toMatch(/^(done|failed)$/);
      const page = await suite.open(admin, `/server/${id}?tab=admin`);
      const dialog = page.getByRole('dialog');
      await dialog.getByTestId('transfer-progress').waitFor({ timeout: STOP_TIMEOUT_MS / 2 });
      expect(await dialog.getByTestId('transfer-progress').getAttribute('data-phase')).toBe('stopping');
      await screenshot(page, 'transfer-picked-up');
      // The daemon kills the server at its stop timeout; the move then goes on and the dialog follows it.
      const result = dialog.getByTestId('transfer-result');
      await result.waitFor({ timeout: 240_000 });
      expect(await result.getAttribute('data-outcome')).toBe('done');
      await dialog.getByText('The server is now on node-b.').waitFor();
      const moved = await call<{ server: { node: { id: string } } }>('GET', `/api/servers/${id}`);
      expect(moved.server.node.id).toBe(b.nodeId);
      // It ignores `stop`: killed here rather than held up for the stop timeout when node B closes.
      await call('POST', `/proxy/daemon/server/${id}/kill?wait=true`);
    },
  );

  it(
    'a server user with every flag sees no move action, and the API refuses them',
    { timeout: LONG },
    async () => {
      const flags = Object.fromEntries(serverPermissions.map((p) => [p, true]));
      const user = await signInServerViewer({ panel: suite.panel, admin }, serverId, flags);
      // Deleting servers too, so the Admin tab itself opens for them (it needs deleteServer): the move card must
      // still be missing from it, beside the delete card they do get.
      type Listed = { id: string; email: string };
      const listed = await call<{ users?: Listed[] } | Listed[]>('GET', '/api/users');
      const users = Array.isArray(listed) ? listed : (listed.users ?? []);
      const id = users.find((u) => u.email === 'viewer@example.com')?.id ?? '';
      await call('PUT', `/api/users/${id}/perms`, { deleteServers: true });
      const page = await suite.open(user, `/server/${serverId}?tab=admin`);
      await page.getByTestId('admin-tab').getByTestId('delete-server').waitFor({ timeout: LONG });
      expect(await page.getByTestId('transfer-card').count()).toBe(0);
      expect(await page.getByTestId('transfer-open').count()).toBe(0);
      const res = await fetch(`${suite.panel.url}/api/servers/${serverId}/transfer`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.session}`, 'content-type': 'application/json' },
        body: JSON.stringify({ node: b.nodeId }),
      });
      expect(res.status).toBe(403);
      expect(await nodeOf()).toBe(a.nodeId);
    },
  );

  it(
    'the target stopped right before confirming: the error is shown and the server stays on A',
    { timeout: 360_000 },
    async () => {
      const page = await openAdmin(1440);
      await statusIs(page, 'online', LONG);
      await pickTarget(page, 'node-b', 'node-a');
      await b.daemon.close();
      bStopped = true;
      const { outcome } = await confirmAndWatch(page);
      expect(outcome).toBe('failed');
      const dialog = page.getByRole('dialog');
      await dialog.getByText('The server stayed on node-a.').waitFor();
      expect(await dialog.getByTestId('transfer-error').textContent()).toContain('node-b');
      await screenshot(page, 'transfer-failed');
      expect(await nodeOf()).toBe(a.nodeId);
      await expect.poll(running, { timeout: LONG }).toBe(true);
      expect(readFileSync(join(a.serversDir, serverId, 'world.dat')).equals(payload)).toBe(true);
    },
  );
});
