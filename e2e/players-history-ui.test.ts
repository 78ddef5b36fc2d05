/**
 * Player counts and metric history in Chromium against a real panel, a real daemon and the REAL Debian
 * minetest-server from the bundled template (docs/daemon.md § Player counts, § Metric history): the server list
 * and the server header show "0 / 5 players" for Minetest and nothing for the fake game (no query); the
 * Statistics tab's 1-hour range draws the stored history. Through the panel, the history needs viewServerStats.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser, openSignedIn } from './helpers/browser';
import {
  addNodeWithDaemon,
  createFakeGameServer,
  signInServerViewer,
  type NodeDaemon,
} from './helpers/daemon-node';
import { createFirstAdmin, panelApi, startTestPanel, type Account, type TestPanel } from './helpers/panel';

const MINETEST = '/usr/lib/minetest/minetestserver';
const TEMPLATE = join(import.meta.dirname, '..', 'apps', 'panel', 'templates', 'minetest-server');

function minetestAvailable(): boolean {
  if (existsSync(MINETEST)) return true;
  if (process.env.CI === 'true') throw new Error(`CI needs ${MINETEST} (apt-get install minetest-server)`);
  console.warn(`skipping the players UI suite: ${MINETEST} is missing`);
  return false;
}

const run = browserAvailable('players and history') && minetestAvailable() ? describe : describe.skip;

/** The bundled Minetest template as an admin's whole definition for `POST /api/servers`. */
function minetestBody(nodeId: string, port: number) {
  const template = JSON.parse(readFileSync(join(TEMPLATE, 'minetest-server.json'), 'utf8')) as {
    data: Record<string, { value?: unknown }>;
  };
  const values = { ip: '127.0.0.1', port, maxplayers: 5, gameid: 'devtest' };
  for (const [key, value] of Object.entries(values)) {
    const variable = template.data[key];
    if (!variable) throw new Error(`the Minetest template has no '${key}'`);
    variable.value = value;
  }
  return { ...template, name: 'minetest one', node: nodeId, users: [], environment: { type: 'tty' } };
}

const lastPoint = async (page: Page, testId: string) =>
  Number((await page.getByTestId(testId).getAttribute('data-points'))?.split(',').at(-1) || 0);

run('players and history in the browser', () => {
  let panel: TestPanel;
  let admin: Account;
  let node: NodeDaemon & { nodeId: string };
  let browser: Browser;
  let minetestId: string;
  let fakeId: string;

  beforeAll(async () => {
    panel = await startTestPanel();
    admin = await createFirstAdmin(panel);
    node = await addNodeWithDaemon(panel, admin.session, 'players-node', {
      players: { intervalMs: 300, serverListPort: 0 },
      stats: { sampleIntervalMs: 300, diskIntervalMs: 300 },
    });
    const port = 20000 + Math.floor(Math.random() * 20000);
    const created = await panelApi<{ id: string }>(
      panel,
      admin.session,
      'POST',
      '/api/servers',
      minetestBody(node.nodeId, port),
    );
    minetestId = created.id;
    await panelApi(panel, admin.session, 'POST', `/proxy/daemon/server/${minetestId}/install?wait=true`);
    await panelApi(panel, admin.session, 'POST', `/proxy/daemon/server/${minetestId}/start?wait=true`);
    fakeId = await createFakeGameServer({ panel, admin, nodeId: node.nodeId }, 'fake one', { start: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await node?.daemon.close();
    await panel?.stop();
  });

  it('shows Minetest’s players in the list and the header, nothing for the fake game', async () => {
    const tp = await openSignedIn(browser, panel.url, admin, '/server');
    const { page } = tp;
    // The list reads the panel's cache of the node's counts (never waiting on the node): reload until it is there.
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByTestId('servers-table').waitFor();
          return page
            .getByTestId(`players-${minetestId}`)
            .textContent({ timeout: 1_000 })
            .catch(() => null);
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe('0 / 5 players');
    expect(await page.getByTestId(`players-${fakeId}`).count()).toBe(0);

    await page.goto(`${panel.url}/server/${minetestId}`);
    await expect
      .poll(() => page.getByTestId('server-players').textContent(), { timeout: 30_000 })
      .toBe('0 / 5 players');
    expect(tp.pageErrors).toEqual([]);
    await tp.context.close();
  });

  it('draws the stored history of the last hour in the Statistics tab', async () => {
    const tp = await openSignedIn(browser, panel.url, admin, `/server/${fakeId}`);
    const { page } = tp;
    await page.getByRole('tab', { name: 'Statistics' }).click();
    await page.getByTestId('stats-range').getByText('1 hour').click();
    await page.getByTestId('history-charts').waitFor();
    expect(await page.getByTestId('history-charts').getAttribute('data-range')).toBe('1h');
    // Refreshed once a minute: switching ranges refetches, so toggle until the running game's memory shows.
    await expect
      .poll(
        async () => {
          await page.getByTestId('stats-range').getByText('24 hours').click();
          await page.getByTestId('stats-range').getByText('1 hour').click();
          return lastPoint(page, 'history-memory-chart');
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBeGreaterThan(0);
    expect(
      (await page.getByTestId('history-cpu-chart').getAttribute('data-points'))?.split(','),
    ).toHaveLength(60);
    expect(await page.getByTestId('history-players-chart').count()).toBe(0);
    expect(tp.pageErrors).toEqual([]);
    await tp.context.close();
  });

  it('refuses the history through the panel without viewServerStats', async () => {
    const viewer = await signInServerViewer({ panel, admin }, fakeId, { viewServerConsole: true });
    const res = await fetch(`${panel.url}/proxy/daemon/server/${fakeId}/history?range=1h`, {
      headers: { Authorization: `Bearer ${viewer.session}` },
    });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: { code: string } };
    expect(body.error.code).toBe('ErrNoPermission');
    const anonymous = await fetch(`${panel.url}/proxy/daemon/server/${fakeId}/history?range=1h`);
    expect(anonymous.status).toBe(401);
  });
});
