/**
 * A node behind a firewall, operated entirely from the browser through its outbound link (issue 19; docs/
 * operations.md § Testing the outbound link). The node lives in a network namespace (e2e/helpers/netns.ts) whose
 * firewall drops every new inbound TCP connection: the panel cannot open anything to it, while it can dial the
 * panel. The panel (the real one, started as `hearth start` starts it) listens on the root side of the veth pair;
 * the node is registered in outbound mode through the API, its deployment config runs unchanged in the built
 * `hearth daemon` inside the namespace, and everything — the server's creation, install, start, console, files
 * (tus upload), stop — goes through the link the node opened. Then the link is cut twice: the daemon killed in
 * the middle of a request (ErrNodeLinkLost, at once) and the node's cable pulled (the panel notices by its
 * keepalive; new requests answer ErrNodeOffline at once, nothing hangs); each time the link comes back by itself
 * or with the restarted daemon, and the server page works again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { configSchema, startPanel, type RunningPanel } from '@hearth/panel';
import { fakeGameDefinition } from '../../apps/daemon/test/helpers/test-daemon';
import { waitFor } from '../../apps/daemon/test/helpers/poll';
import { browserAvailable, launchBrowser, openSignedIn, screenshot, type TestPage } from '../helpers/browser';
import { createFirstAdmin, ensureWebBuilt, panelApi, type Account, type TestPanel } from '../helpers/panel';
import { choose, createAndInstall, field, startFromPage, statusIs } from '../helpers/server-ui';
import {
  createIsolatedNetns,
  deployInNetns,
  netnsUnavailable,
  tcpConnect,
  tcpConnectFrom,
  type IsolatedNetns,
  type NsDaemon,
} from '../helpers/netns';

const SUITE = 'outbound link in a network namespace';
const skip = netnsUnavailable(SUITE) ?? (browserAvailable(SUITE) ? null : 'no Chromium');
// The daemon's port inside the namespace (it listens on its loopback only) and a probe listener on every address.
const DAEMON_PORT = 25756;
const PROBE_PORT = 25799;
const SLOW = { timeout: 300_000 };
const WAIT = { timeout: 120_000 };

interface NodeView {
  id: string;
  link: string;
  linkState: {
    connected: boolean;
    remoteAddress: string | null;
    connects: number;
    lastError: string | null;
  } | null;
}

/** A port nobody listens on at `host` right now. */
async function freePortOn(host: string): Promise<number> {
  const probe = createServer().listen(0, host);
  await new Promise((done) => probe.once('listening', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

/** A TCP listener on 0.0.0.0 inside the namespace: proves a refused connection is the firewall, not an empty port. */
function probeListener(ns: IsolatedNetns): Promise<ChildProcess> {
  const script = `require('node:net').createServer((s) => s.end()).listen(${PROBE_PORT}, '0.0.0.0', () => console.log('up'))`;
  const child = spawn('ip', ['netns', 'exec', ns.name, process.execPath, '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the probe listener exited (${code})`)));
  });
}

describe.skipIf(skip !== null)(SUITE, () => {
  let ns: IsolatedNetns;
  let running: RunningPanel;
  let panel: TestPanel;
  let admin: Account;
  let browser: Browser;
  let daemon: NsDaemon | undefined;
  let nodeId = '';
  let serverId = '';
  const pages: TestPage[] = [];
  const dirs: string[] = [];

  const api = <T>(method: string, path: string, body?: unknown) =>
    panelApi<T>(panel, admin.session, method, path, body);
  /** The answer as it is (status and catalogued error code), for the requests expected to fail. */
  const raw = async (method: string, path: string) => {
    const res = await fetch(`${panel.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${admin.session}` },
    });
    const text = await res.text();
    const code = (JSON.parse(text || '{}') as { error?: { code?: string } }).error?.code;
    return { status: res.status, code };
  };
  const node = () => api<NodeView>('GET', `/api/nodes/${nodeId}`);
  const open = async (path: string): Promise<Page> => {
    const tp = await openSignedIn(browser, panel.url, admin, path);
    pages.push(tp);
    const shot = `outbound-netns-failed-${pages.length}`;
    // What the page showed when a step failed (.test-results/), the first thing to look at.
    onTestFailed(() => screenshot(tp.page, shot).then(() => undefined));
    return tp.page;
  };

  beforeAll(async () => {
    ensureWebBuilt();
    ns = createIsolatedNetns();
    const port = await freePortOn(ns.hostAddress);
    const dataDir = mkdtempSync(join(tmpdir(), 'hearth-netns-panel-'));
    dirs.push(dataDir);
    const url = `http://${ns.hostAddress}:${port}`;
    // The panel as `hearth start` runs it, on the root end of the veth pair; its master URL is what the
    // outbound node's deployment config tells the daemon to dial.
    running = await startPanel(
      configSchema.parse({
        web: { host: ns.hostAddress, port },
        panel: {
          dataDir,
          databaseUrl: `sqlite:${join(dataDir, 'hearth.db')}`,
          webDir: join(import.meta.dirname, '../../apps/web/dist'),
          masterUrl: url,
        },
        link: { sftpRelayHost: ns.hostAddress },
        log: { level: 'silent' },
      }),
    );
    panel = { url, setupUrl: running.setupUrl, dataDir, stop: () => running.close() };
    admin = await createFirstAdmin(panel);
    await api('PUT', '/api/templates/fake-game', {
      ...fakeGameDefinition(),
      supportedEnvironments: [{ type: 'standard' }],
    });
    browser = await launchBrowser();
  }, 300_000);

  afterAll(async () => {
    try {
      for (const tp of pages) expect(tp.pageErrors).toEqual([]);
    } finally {
      await browser?.close();
      await daemon?.stop();
      ns?.close();
      await running?.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('isolates the node: nothing in the root namespace reaches it, it reaches the panel', SLOW, async () => {
    const listener = await probeListener(ns);
    try {
      // Listening on every address inside, answered on its own side: only the firewall stands in between.
      expect(await tcpConnectFrom(ns, ns.nodeAddress, PROBE_PORT)).toBe('connected');
      expect(await tcpConnect(ns.nodeAddress, PROBE_PORT)).not.toBe('connected');
      expect(await tcpConnect(ns.nodeAddress, DAEMON_PORT)).not.toBe('connected');
      expect(await tcpConnectFrom(ns, ns.hostAddress, Number(new URL(panel.url).port))).toBe('connected');
    } finally {
      listener.kill('SIGKILL');
    }
  });

  it(
    'registers the node in outbound mode, deploys it into the namespace, and the link connects',
    SLOW,
    async () => {
      const sftpPort = await freePortOn(ns.hostAddress);
      const body = {
        name: 'behind-nat',
        // Users' SFTP goes to the panel's relay for this node: the panel's host and the node's SFTP port.
        publicHost: ns.hostAddress,
        publicPort: DAEMON_PORT,
        privateHost: ns.nodeAddress,
        privatePort: DAEMON_PORT,
        sftpPort,
        link: 'outbound',
      };
      nodeId = (await api<{ id: string }>('POST', '/api/nodes', body)).id;
      const { config } = await api<{ config: Record<string, unknown> }>(
        'GET',
        `/api/nodes/${nodeId}/deployment`,
      );
      expect(config).toMatchObject({ link: 'outbound', host: '127.0.0.1', panelUrl: panel.url });
      expect((await node()).linkState).toMatchObject({ connected: false, connects: 0 });

      const dir = mkdtempSync(join(tmpdir(), 'hearth-netns-node-'));
      dirs.push(dir);
      // A stop the game ignores is waited on this long: the request the test cuts stays in flight meanwhile.
      daemon = deployInNetns(ns, config, dir, { HEARTH_DAEMON_POWER_STOP_TIMEOUT_MS: '600000' });
      await daemon.start();
      const state = await waitFor(
        async () => {
          const { linkState } = await node();
          return linkState?.connected ? linkState : null;
        },
        'the link up',
        {
          timeoutMs: 120_000,
          intervalMs: 250,
        },
      );
      expect(state.connects).toBe(1);
      expect(state.remoteAddress).toContain(ns.nodeAddress);
      // The daemon serves inside (its own loopback) and nothing of it is reachable from here.
      expect(await tcpConnectFrom(ns, '127.0.0.1', DAEMON_PORT)).toBe('connected');
      for (const port of [DAEMON_PORT, sftpPort])
        expect(await tcpConnect(ns.nodeAddress, port)).not.toBe('connected');
      expect(
        (await api<{ environments: string[] }>('GET', `/api/nodes/${nodeId}/features`)).environments,
      ).toContain('standard');
    },
  );

  it(
    'runs a server from the browser through the link: create, install, start, console, files, stop',
    SLOW,
    async () => {
      const page = await open('/addserver');
      await choose(page, 'Template', 'Fake game');
      await choose(page, 'Node', 'behind-nat');
      await field(page, 'Name').fill('through the tunnel');
      await page.getByLabel('Extra flags').fill('--quiet');
      serverId = await createAndInstall(page, api, 120_000);
      await startFromPage(page, 120_000);
      const output = page.getByTestId('console-output');
      await output
        .getByText(/fake-game ready/)
        .first()
        .waitFor(WAIT);
      await page.getByTestId('console-command').fill('hello through the tunnel');
      await page.keyboard.press('Enter');
      await output.getByText('echo: hello through the tunnel').first().waitFor(WAIT);
      await screenshot(page, 'outbound-netns-console');

      await page.goto(`/server/${serverId}?tab=files`);
      await page.getByTestId('file-row-server.properties').waitFor(WAIT);
      const text = 'uploaded through the outbound link\n';
      await page
        .getByTestId('file-picker')
        .setInputFiles({ name: 'tunnel.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
      await page.getByTestId('file-row-tunnel.txt').waitFor(WAIT);
      await page.getByTestId('file-row-tunnel.txt').getByTestId('file-open').click();
      const editor = page.getByTestId('file-editor');
      await expect.poll(() => editor.locator('.cm-content').textContent(), WAIT).toBe(text.trimEnd());
      await screenshot(page, 'outbound-netns-files');
      await page.keyboard.press('Escape');
      await page.goto(`/server/${serverId}`);
      await statusIs(page, 'online', 120_000);
      await page.getByRole('button', { name: 'Stop', exact: true }).click();
      await statusIs(page, 'offline', 120_000);
      // The bytes are on the node, in the namespace, not anywhere on the panel's side.
      const read = await fetch(`${panel.url}/proxy/daemon/server/${serverId}/file/tunnel.txt`, {
        headers: { authorization: `Bearer ${admin.session}` },
      });
      expect(await read.text()).toBe(text);
    },
  );

  /** Waits until the Node page shows the link `connected` or not (the page refreshes the state by itself). */
  const nodePageShows = async (page: Page, connected: boolean) => {
    const badge = page.getByTestId('node-link-state').getByTestId('node-link-badge');
    await expect.poll(() => badge.getAttribute('data-connected'), WAIT).toBe(String(connected));
  };

  it(
    'fails fast when the daemon dies mid-request, shows it, and reconnects when it is back',
    SLOW,
    async () => {
      await api('POST', `/proxy/daemon/server/${serverId}/data`, {
        data: { flags: { value: '--ignore-stop' } },
      });
      await api('POST', `/proxy/daemon/server/${serverId}/start?wait=true`);
      const nodePage = await open(`/node/${nodeId}`);
      await nodePageShows(nodePage, true);
      const inFlight = raw('POST', `/proxy/daemon/server/${serverId}/stop?wait=true`);
      await waitFor(
        async () =>
          JSON.stringify(await api('GET', `/proxy/daemon/server/${serverId}/console`)).includes(
            'ignoring stop',
          ),
        'the stop in flight on the node',
        { timeoutMs: 120_000, intervalMs: 250 },
      );
      await daemon?.stop('SIGKILL');
      expect(await inFlight).toEqual({ status: 502, code: 'ErrNodeLinkLost' });
      // No link, no waiting: a new request is refused at once with the catalogued error.
      expect(await raw('GET', `/proxy/daemon/server/${serverId}/status`)).toEqual({
        status: 502,
        code: 'ErrNodeOffline',
      });
      await nodePageShows(nodePage, false);
      await screenshot(nodePage, 'outbound-netns-node-disconnected');
      expect((await node()).linkState).toMatchObject({ connected: false, connects: 1 });

      await daemon?.start();
      await waitFor(
        async () => (await node()).linkState?.connects === 2 && (await node()).linkState?.connected,
        'the link back',
        {
          timeoutMs: 120_000,
          intervalMs: 250,
        },
      );
      await nodePageShows(nodePage, true);
      // The game outlived its daemon (its holder kept it) and is still ignoring stops.
      const page = await open(`/server/${serverId}`);
      await statusIs(page, 'online', 120_000);
    },
  );

  it('notices a pulled cable, refuses at once meanwhile, and reconnects by itself', SLOW, async () => {
    const nodePage = await open(`/node/${nodeId}`);
    await nodePageShows(nodePage, true);
    ns.setLink(false);
    // Cut while a request is on its way: the panel answers with a catalogued error (when its keepalive notices
    // the dead link, or its own response timeout), never a hang.
    const cut = await raw('GET', `/proxy/daemon/server/${serverId}/status`);
    expect(cut.status).toBeGreaterThanOrEqual(502);
    expect(['ErrNodeLinkLost', 'ErrNodeOffline', 'ErrNodeTimeout']).toContain(cut.code);
    await waitFor(async () => (await node()).linkState?.connected === false, 'the panel to notice', {
      timeoutMs: 120_000,
      intervalMs: 500,
    });
    expect(await raw('GET', `/proxy/daemon/server/${serverId}/status`)).toEqual({
      status: 502,
      code: 'ErrNodeOffline',
    });
    await nodePageShows(nodePage, false);

    ns.setLink(true);
    // Nobody restarts anything: the daemon's own reconnect (backoff) brings the link back.
    await waitFor(async () => (await node()).linkState?.connected, 'the node to dial back in', {
      timeoutMs: 180_000,
      intervalMs: 500,
    });
    await nodePageShows(nodePage, true);
    const page = await open(`/server/${serverId}`);
    await statusIs(page, 'online', 120_000);
    const output = page.getByTestId('console-output');
    await page.getByTestId('console-command').fill('back again');
    await page.keyboard.press('Enter');
    await output.getByText('echo: back again').first().waitFor(WAIT);
    await api('POST', `/proxy/daemon/server/${serverId}/kill`);
    await statusIs(page, 'offline', 120_000);
    await screenshot(page, 'outbound-netns-back');
  });
});
