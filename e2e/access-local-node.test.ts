/**
 * The local node's page under `hearth start` (docs/permissions.md § Web guards): it says the daemon runs in the
 * panel's process, and offers neither deployment steps ("install Hearth on the node's machine") nor a
 * credential rotation; another node's page still has both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser, openSignedIn } from './helpers/browser';
import { ensureWebBuilt } from './helpers/panel';

const ROOT = resolve(import.meta.dirname, '..');
const admin = { username: 'admin', email: 'admin@example.com', password: 'admin-password-1' };
const canRun = browserAvailable('local node page');

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((done) => probe.once('listening', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

/** Resolves with the setup link once both the panel and the local node are up. */
function waitForStart(child: ChildProcess): Promise<string> {
  return new Promise((done, fail) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const setup = /(http\S+\/auth\/setup\?token=\S+)/.exec(out)?.[1];
      if (setup && out.includes('Local node started')) done(setup);
      if (out.includes('Local node did not start')) fail(new Error(out));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => fail(new Error(`hearth start exited (${code}): ${out}`)));
  });
}

describe.runIf(canRun)('hearth start: the local node page', () => {
  let dir: string;
  let child: ChildProcess | undefined;
  let panelUrl = '';
  let setupUrl = '';

  beforeAll(async () => {
    ensureWebBuilt();
    dir = mkdtempSync(join(tmpdir(), 'hearth-local-node-'));
    const port = await freePort();
    const config = {
      web: { host: '127.0.0.1', port },
      panel: {
        dataDir: join(dir, 'data'),
        databaseUrl: `sqlite:${join(dir, 'data', 'hearth.db')}`,
        webDir: join(ROOT, 'apps/web/dist'),
      },
      node: { port: await freePort(), sftpPort: await freePort() },
      log: { level: 'warn' },
    };
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    child = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'apps/cli/src/main.ts'), '--config', join(dir, 'config.json'), 'start'],
      { cwd: ROOT, env: { ...process.env, HEARTH_CONFIG: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    setupUrl = await waitForStart(child);
    panelUrl = `http://127.0.0.1:${port}`;
  }, 60_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child?.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'says the local node runs here, without deployment steps or a rotate button',
    { timeout: 90_000 },
    async () => {
      const token = new URL(setupUrl).searchParams.get('token');
      const setup = await fetch(`${panelUrl}/auth/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...admin, token }),
      });
      expect(setup.status).toBe(200);
      const who = (await setup.json()) as { session: string; scopes: string[] };
      const other = await fetch(`${panelUrl}/api/nodes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${who.session}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'remote',
          publicHost: '127.0.0.1',
          publicPort: 1,
          privateHost: '127.0.0.1',
          privatePort: 1,
          sftpPort: 2,
        }),
      });
      const { id: remote } = (await other.json()) as { id: string };
      const browser = await launchBrowser();
      try {
        const { page } = await openSignedIn(browser, panelUrl, who, '/node/local');
        await page.getByTestId('local-node-note').waitFor();
        expect(await page.getByTestId('deployment-card').count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Rotate credential' }).count()).toBe(0);
        expect(await page.getByText("Install Hearth on the node's machine").count()).toBe(0);
        // A remote node keeps its deployment card and rotation (the check above is not vacuous).
        await page.goto(`/node/${remote}`);
        await page.getByTestId('deployment-card').waitFor();
        await page.getByRole('button', { name: 'Rotate credential' }).waitFor();
        expect(await page.getByTestId('local-node-note').count()).toBe(0);
      } finally {
        await browser.close();
      }
    },
  );
});
