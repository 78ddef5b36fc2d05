/**
 * An expired session in the file manager ends the way it does everywhere else (docs/api.md § Session: any 401
 * logs out, goes to the login page and shows the session-timed-out message): opening a file and saving one in
 * the editor, in Chromium against a real panel and daemon. The session is revoked on the panel between loading
 * the page and the click, so the file call itself is the first to be answered 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, openSignedIn } from './helpers/browser';
import { createFakeGameServer, startPanelWithDaemon, type PanelWithDaemon } from './helpers/daemon-node';

const run = browserAvailable('files session') ? describe : describe.skip;

run('file manager with an expired session', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let serverId: string;
  let root: string;

  beforeAll(async () => {
    live = await startPanelWithDaemon('files-session-node');
    serverId = await createFakeGameServer(live, 'files session');
    root = join(live.serversDir, serverId);
    writeFileSync(join(root, 'config.yml'), 'motd: hello\n');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
  });

  /** A session of its own (revoking it leaves the other cases alone), shown the server's files. */
  async function filesPage(): Promise<{ page: Page; session: string; unauthorized: string[] }> {
    const res = await fetch(`${live.panel.url}/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: live.admin.email, password: live.admin.password }),
    });
    const who = (await res.json()) as { session: string; scopes: string[] };
    const { page } = await openSignedIn(browser, live.panel.url, who, `/server/${serverId}?tab=files`);
    await page.getByTestId('file-row-config.yml').waitFor();
    const unauthorized: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 401) unauthorized.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    return { page, session: who.session, unauthorized };
  }

  async function revoke(session: string): Promise<void> {
    const res = await fetch(`${live.panel.url}/auth/logout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${session}` },
    });
    expect(res.status).toBe(204);
  }

  async function expectTimedOut(page: Page): Promise<void> {
    await page.waitForURL('**/auth/login');
    expect(await page.getByTestId('session-timed-out').textContent()).toBe(
      'Your session timed out, please log in again',
    );
    expect(await page.evaluate('document.cookie')).not.toContain('hearth_session=');
  }

  it('saving in the editor after the session ended logs out and writes nothing', async () => {
    const { page, session, unauthorized } = await filesPage();
    await page.getByTestId('file-row-config.yml').getByTestId('file-open').click();
    const editor = page.getByTestId('file-editor');
    await expect.poll(() => editor.locator('.cm-content').textContent()).toBe('motd: hello');
    await editor.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('motd: never saved');
    await revoke(session);
    expect(unauthorized).toEqual([]);
    await page.getByTestId('file-editor-save').click();
    await expectTimedOut(page);
    expect(unauthorized[0]).toBe(`PUT /proxy/daemon/server/${serverId}/file/config.yml`);
    expect(readFileSync(join(root, 'config.yml'), 'utf8')).toBe('motd: hello\n');
  });

  it('opening a file after the session ended logs out', async () => {
    const { page, session, unauthorized } = await filesPage();
    await revoke(session);
    expect(unauthorized).toEqual([]);
    await page.getByTestId('file-row-config.yml').getByTestId('file-open').click();
    await expectTimedOut(page);
    expect(unauthorized[0]).toBe(`GET /proxy/daemon/server/${serverId}/file/config.yml`);
  });
});
