/**
 * The local node's page under `hearth start` (docs/permissions.md § Web guards): it says the daemon runs in the
 * panel's process, and offers neither deployment steps ("install Hearth on the node's machine") nor a
 * credential rotation; another node's page still has both.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser, openSignedIn } from './helpers/browser';
import { startHearth, type HearthStart } from './deploy/helpers/hearth-start';
import { ensureWebBuilt } from './helpers/panel';

const ROOT = resolve(import.meta.dirname, '..');
const admin = { username: 'admin', email: 'admin@example.com', password: 'admin-password-1' };
const canRun = browserAvailable('local node page');

describe.runIf(canRun)('hearth start: the local node page', () => {
  let dir: string;
  let hearth: HearthStart | undefined;
  let panelUrl = '';
  let setupUrl = '';

  beforeAll(async () => {
    ensureWebBuilt();
    dir = mkdtempSync(join(tmpdir(), 'hearth-local-node-'));
    hearth = await startHearth(dir, {}, { webDir: join(ROOT, 'apps/web/dist') });
    setupUrl = hearth.setupUrl;
    panelUrl = `http://127.0.0.1:${hearth.port}`;
  }, 60_000);

  afterAll(async () => {
    await hearth?.stop();
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
