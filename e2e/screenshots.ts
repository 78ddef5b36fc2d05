/**
 * Screenshots of every route (docs/testing.md § Screenshots): `npm run screenshots [-- <folder>]` starts
 * `hearth start` (panel + local node, as e2e/deploy/helpers/hearth-start.ts does) in a temporary folder, creates
 * the administrator and a running server of the test game, and writes a PNG of each route of the web app's
 * route table (and of each tab of the server page) at 1440×900 and 390×844, light and dark, into the folder
 * (default `.screenshots/`, git-ignored).
 * A script, not a test: it asserts nothing, it is for looking at.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { startHearth } from './deploy/helpers/hearth-start';
import { launchBrowser } from './helpers/browser';
import { ensureWebBuilt } from './helpers/panel';
import { walkPaths } from './helpers/route-walk';

const ROOT = resolve(import.meta.dirname, '..');
const out = resolve(process.argv[2] ?? join(ROOT, '.screenshots'));
const sizes = [
  { label: 'desktop', width: 1440, height: 900 },
  { label: 'phone', width: 390, height: 844 },
] as const;
const admin = { username: 'admin', email: 'admin@example.com', password: 'screenshots-password-1' };

async function main(): Promise<void> {
  ensureWebBuilt();
  mkdirSync(out, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'hearth-screenshots-'));
  const hearth = await startHearth(dir, {}, { webDir: join(ROOT, 'apps/web/dist') });
  const url = `http://127.0.0.1:${hearth.port}`;
  const browser = await launchBrowser();
  try {
    const token = new URL(hearth.setupUrl).searchParams.get('token');
    const setup = await fetch(`${url}/auth/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...admin, token }),
    });
    const who = (await setup.json()) as { session: string; scopes: string[] };
    const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${who.session}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      const text = await res.text();
      return (text ? JSON.parse(text) : undefined) as T;
    };
    const nodes = await api<Array<{ id: string }>>('GET', '/api/nodes');
    const node = nodes[0]?.id ?? 'local';
    const body = { ...fakeGameDefinition(), name: 'Screenshot server', node, users: [] };
    const { id: server } = await api<{ id: string }>('POST', '/api/servers', body);
    await api('POST', `/proxy/daemon/server/${server}/install?wait=true`);
    await api('POST', `/proxy/daemon/server/${server}/start?wait=true`);
    const me = await api<{ id: string }>('GET', '/api/self');
    const paths = walkPaths({ server, user: me.id, node });

    for (const dark of [false, true]) {
      const context = await browser.newContext({ baseURL: url, locale: 'en-US' });
      const page = await context.newPage();
      await page.goto('/errors/404');
      await page.evaluate(`localStorage.setItem('dark', '${dark}')`);
      for (const signedIn of [false, true]) {
        if (signedIn) {
          await context.addCookies([{ name: 'hearth_session', value: who.session, url, sameSite: 'Strict' }]);
          await page.evaluate(
            `localStorage.setItem('scopes', ${JSON.stringify(JSON.stringify(who.scopes))})`,
          );
        }
        for (const route of paths.filter((p) => p.public !== signedIn)) {
          for (const size of sizes) {
            await page.setViewportSize({ width: size.width, height: size.height });
            const shoot = async (path: string, name: string) => {
              await page.goto(path);
              await page.waitForLoadState('networkidle').catch(() => undefined);
              const file = join(out, `${name}-${size.label}-${dark ? 'dark' : 'light'}.png`);
              await page.screenshot({ path: file, fullPage: true });
              console.log(file);
            };
            await shoot(route.path, route.name);
            if (route.name !== 'Server') continue;
            // Each of the server page's other tabs, as its tab bar offers them.
            const tabs = await page.evaluate<string[]>(
              `[...document.querySelectorAll('[data-testid="server-tabs"] [data-tab]')].map((el) => el.dataset.tab)`,
            );
            for (const tab of tabs.filter((id) => id !== 'console')) {
              await shoot(`${route.path}?tab=${tab}`, `${route.name}-${tab}`);
            }
          }
        }
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await hearth.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
