/**
 * The server page live in Chromium: a real panel and a
 * real daemon running the fake game; start, console output, a command and its reply, stats charts moving,
 * stop; the socket blocked → HTTP fallback with the banner, then recovering; a view-only user has no input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, openSignedIn } from './helpers/browser';
import {
  createFakeGameServer,
  panelApi,
  signInServerViewer,
  startPanelWithDaemon,
  type PanelWithDaemon,
} from './helpers/daemon-node';

const run = browserAvailable('server live') ? describe : describe.skip;

const lastPoint = async (page: Page, testId: string) =>
  Number((await page.getByTestId(testId).getAttribute('data-points'))?.split(',').at(-1) ?? 0);

run('server page live', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let serverId: string;

  beforeAll(async () => {
    live = await startPanelWithDaemon('live-node');
    serverId = await createFakeGameServer(live, 'live one');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
  });

  /** Start or stop and wait; "already running/stopped" (409) is fine, as a failed earlier test may leave either. */
  async function power(action: 'start' | 'stop') {
    const res = await fetch(`${live.panel.url}/proxy/daemon/server/${serverId}/${action}?wait=true`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${live.admin.session}` },
    });
    if (!res.ok && res.status !== 409) throw new Error(`${action}: ${res.status} ${await res.text()}`);
  }

  it('start, see output, send a command and its reply, stats move, stop', async () => {
    await power('stop');
    const tp = await openSignedIn(browser, live.panel.url, live.admin, `/server/${serverId}`);
    const { page } = tp;
    const output = page.getByTestId('console-output');
    await output.getByText('Installing server').first().waitFor();
    expect(await page.getByTestId('daemon-tag').count()).toBeGreaterThan(0);
    await page.getByTestId('server-controls').getByRole('button', { name: 'Start' }).click();
    await output.getByText(/fake-game ready/).waitFor();
    await page.getByTestId('console-command').fill('hello from the browser');
    await page.getByTestId('console-command').press('Enter');
    await output.getByText('echo: hello from the browser').waitFor();
    // Server output cannot inject markup into the page.
    await page.getByTestId('console-command').fill('<img src=x onerror="window.__pwned=1">');
    await page.getByTestId('console-command').press('Enter');
    await output.getByText('echo: <img src=x').waitFor();
    expect(await page.evaluate('window.__pwned ?? 0')).toBe(0);

    await page.getByTestId('console-command').blur(); // shortcuts are ignored while typing
    await page.keyboard.press('t');
    await page.keyboard.press('i');
    await page.getByTestId('stats-tab').waitFor();
    await expect.poll(() => lastPoint(page, 'memory-chart'), { timeout: 15_000 }).toBeGreaterThan(0);
    expect((await page.getByTestId('cpu-chart').getAttribute('data-points'))?.split(',')).toHaveLength(40);

    await page.keyboard.press('t');
    await page.keyboard.press('c');
    await page.getByTestId('server-controls').getByRole('button', { name: 'Stop' }).click();
    // `.first()`: a console re-opened from another tab may render a line that arrives during its replay twice.
    await output.getByText('fake-game: stopping').first().waitFor();
    expect(tp.pageErrors).toEqual([]);
    await tp.context.close();
  });

  it('pause holds the view and shows the new-lines dot; resume shows them', async () => {
    await power('start');
    const tp = await openSignedIn(browser, live.panel.url, live.admin, `/server/${serverId}`);
    const { page } = tp;
    const output = page.getByTestId('console-output');
    await output
      .getByText(/fake-game ready/)
      .first()
      .waitFor();
    await page.keyboard.press('c');
    await page.keyboard.press('p');
    await expect.poll(() => page.getByTestId('console-pause').getAttribute('data-paused')).toBe('true');
    await panelApi(live.panel, live.admin.session, 'POST', `/proxy/daemon/server/${serverId}/console`, {
      command: 'while paused',
    });
    await page.locator('.mantine-Indicator-indicator').waitFor();
    expect(await output.getByText('echo: while paused').count()).toBe(0);
    await page.getByTestId('console-pause').click();
    await output.getByText('echo: while paused').waitFor();
    await power('stop');
    await tp.context.close();
  });

  it('falls back to HTTP when the websocket is blocked, shows the banner, and recovers', async () => {
    await power('start');
    const tp = await openSignedIn(browser, live.panel.url, live.admin);
    const { page } = tp;
    // The page's own timers run on Playwright's clock: reconnect delays and the 30 s reset are skipped
    // over with runFor instead of waited for (time still flows naturally in between).
    await page.clock.install();
    let blocked = true;
    let upgrades = 0;
    const framesToDaemon: string[] = [];
    await page.routeWebSocket('**/proxy/daemon/socket/**', (ws) => {
      upgrades++;
      if (blocked) return ws.close({ code: 1011, reason: 'blocked by test' });
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        framesToDaemon.push(String(message));
        server.send(message);
      });
    });
    const consolePosts: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().endsWith(`/proxy/daemon/server/${serverId}/console`)) {
        consolePosts.push(req.postData() ?? '');
      }
    });
    await page.goto(`/server/${serverId}`);
    const output = page.getByTestId('console-output');
    await output
      .getByText(/fake-game ready/)
      .first()
      .waitFor();
    // Commands go over HTTP; the reply comes back through the 5 s replay poll.
    await page.getByTestId('console-command').fill('over http');
    await page.getByTestId('console-command').press('Enter');
    await expect.poll(() => consolePosts.some((body) => body.includes('over http'))).toBe(true);
    await page.clock.runFor(5_000);
    await output.getByText('echo: over http').waitFor();
    // 5 failed reconnects (0.5 + 1 + 1.5 + 2 + 2.5 s) → warning banner. The clock moves only until the sixth
    // upgrade was refused: moving it on while a loaded browser renders the banner could reach the 30 s reset.
    const banner = page.getByTestId('socket-banner');
    await expect
      .poll(async () => {
        if (upgrades < 6) {
          const shown = await banner.count();
          // Fewer than six refused upgrades (the first connect and four retries): no banner yet.
          if (upgrades < 6) expect(shown).toBe(0);
          await page.clock.runFor(500);
        }
        return upgrades;
      })
      .toBeGreaterThanOrEqual(6);
    await banner.waitFor();
    // The clock flows naturally meanwhile, so a further retry may already have been refused.
    expect(upgrades).toBeGreaterThanOrEqual(6);
    blocked = false;
    // 30 s after the last close the counter resets and a fresh attempt goes through.
    await expect
      .poll(async () => {
        await page.clock.runFor(5_000);
        return banner.count();
      })
      .toBe(0);
    await page.getByTestId('console-command').fill('over the socket again');
    await page.getByTestId('console-command').press('Enter');
    await output.getByText('echo: over the socket again').waitFor();
    // The command and its reply travelled over the websocket: a frame carried it, no HTTP POST did.
    expect(framesToDaemon.some((frame) => frame.includes('over the socket again'))).toBe(true);
    expect(consolePosts.some((body) => body.includes('over the socket again'))).toBe(false);
    await power('stop');
    await tp.context.close();
  });

  it('a view-only user sees the console but has no command input', async () => {
    const viewer = await signInServerViewer(live, serverId, { viewServerConsole: true });
    const tp = await openSignedIn(browser, live.panel.url, viewer, `/server/${serverId}`);
    const { page } = tp;
    await page.getByTestId('console-output').getByText('Installing server').first().waitFor();
    expect(await page.getByTestId('console-command').count()).toBe(0);
    await tp.context.close();
  });
});
