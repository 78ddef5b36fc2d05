/**
 * Shared by the i18n browser suites: a real panel and daemon with one template, one running server, and the
 * SPEC route table as concrete paths (signed-in and public), plus the in-page scripts they run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { fakeGameDefinition } from '../../apps/daemon/test/helpers/test-daemon';
import {
  createFakeGameServer,
  panelApi,
  startPanelWithDaemon,
  type PanelWithDaemon,
} from '../helpers/daemon-node';

const SERVER_TABS = [
  'stats',
  'files',
  'backups',
  'tasks',
  'settings',
  'users',
  'activity',
  'alerts',
  'admin',
];

export interface I18nFixture {
  live: PanelWithDaemon;
  /** Paths of the route table with real ids, for the signed-in administrator. */
  signedIn: string[];
  /** The public routes (visited without a session). */
  publicPaths: string[];
}

export async function startI18nFixture(): Promise<I18nFixture> {
  const live = await startPanelWithDaemon('node-i18n');
  const { panel, admin } = live;
  const { run, ...rest } = fakeGameDefinition();
  const template = { ...rest, run, supportedEnvironments: [{ type: 'standard' }] };
  await panelApi(panel, admin.session, 'PUT', '/api/templates/fake-game', template);
  const serverId = await createFakeGameServer(live, 'i18n-game', { start: true });
  const { users } = await panelApi<{ users: { id: string }[] }>(panel, admin.session, 'GET', '/api/users');
  const server = `/server/${serverId}`;
  return {
    live,
    signedIn: [
      '/server',
      server,
      ...SERVER_TABS.map((tab) => `${server}?tab=${tab}`),
      '/addserver',
      '/account',
      `/user/${users[0]?.id ?? ''}`,
      '/adduser',
      '/user',
      '/template/fake-game',
      '/addtemplate',
      '/template',
      '/node',
      `/node/${live.nodeId}`,
      '/addnode',
      '/settings',
      '/activity',
      '/alerts',
      '/errors/404',
    ],
    publicPaths: [
      '/auth/login',
      '/auth/register',
      '/auth/invite?token=x',
      '/auth/setup?token=x',
      '/auth/reset',
      '/errors/404',
    ],
  };
}

/**
 * The rows of the web route table (`route('/path', 'Name', …)` / `publicRoute(…)` in routes.ts), read from its
 * source: the table module imports the pages, which Node cannot load. A parse that finds too few rows fails,
 * so the coverage check can never pass vacuously.
 */
export function routeTable(): Array<{ path: string; name: string; public: boolean }> {
  const source = readFileSync(join(import.meta.dirname, '../../apps/web/src/app/routes.ts'), 'utf8');
  const rows = [...source.matchAll(/\b(route|publicRoute)\(\s*'([^']+)',\s*'([^']+)'/g)].map((m) => ({
    path: m[2] ?? '',
    name: m[3] ?? '',
    public: m[1] === 'publicRoute',
  }));
  if (rows.length < 15) throw new Error(`read only ${rows.length} rows from the route table`);
  return rows;
}

/** The paths of the web route table, to check the suites cover every route. */
export function routeTablePaths(): string[] {
  return routeTable().map((route) => route.path);
}

/** The route-table row a concrete path renders (the most specific pattern: `/server` before `/server/:id`). */
function routeNameOf(path: string): string {
  const route = routeTable().find((r) => matchesRoute(path, r.path));
  if (!route) throw new Error(`${path} matches no row of the route table`);
  return route.name;
}

/** Whether a concrete path (`/server/abc?tab=files`) belongs to a route pattern (`/server/:id`). */
export function matchesRoute(path: string, pattern: string): boolean {
  const regex = new RegExp(`^${pattern.replace(/:\w+/g, '[^/]+')}$`);
  return regex.test(path.split('?')[0] ?? path);
}

/** Signs a context in as `who` (session cookie + the scopes the web app keeps in local storage). */
export async function signIn(
  context: BrowserContext,
  baseURL: string,
  who: { session: string; scopes: string[] },
): Promise<void> {
  await context.addCookies([
    { name: 'hearth_session', value: who.session, url: baseURL, sameSite: 'Strict' },
  ]);
  await context.addInitScript(
    `localStorage.setItem('scopes', ${JSON.stringify(JSON.stringify(who.scopes))})`,
  );
}

/**
 * Client-side navigation (no reload): the router follows popstate. Fails unless the route's own page rendered
 * (its `data-route` marker, see apps/web/src/app/router.tsx) and then settled.
 */
export async function navigate(page: Page, path: string, reload = false): Promise<void> {
  if (reload) await page.goto(path);
  else
    await page.evaluate(
      `history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'))`,
    );
  await page.locator(`[data-route="${routeNameOf(path)}"]`).waitFor({ state: 'attached' });
  if (!(await page.evaluate<boolean>(SETTLE))) throw new Error(`${path} did not settle (a loader stayed)`);
}

/** Waits until no loader shows and the visible text stopped changing for two polls; false after 10 s. */
const SETTLE = `new Promise((resolve) => {
  let last = '';
  let stable = 0;
  const started = Date.now();
  const tick = () => {
    const busy = document.querySelector('.mantine-Loader-root');
    const text = document.body.innerText;
    stable = !busy && text === last ? stable + 1 : 0;
    last = text;
    if (stable >= 2) resolve(true);
    else if (Date.now() - started > 10000) resolve(false);
    else setTimeout(tick, 100);
  };
  tick();
})`;

/**
 * Visible interface text: text nodes and input placeholders, leaving out what is content rather than
 * interface (console output, code editors, file names are data).
 */
export const VISIBLE_TEXTS = `(() => {
  const skip = '[data-testid="console-output"], .cm-editor, [data-testid="file-list"], [data-i18n-ignore]';
  const out = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\\s+/g, ' ').trim();
    const el = node.parentElement;
    if (!text || !el || el.closest(skip) || el.closest('script, style, noscript')) continue;
    if (el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) out.add(text);
  }
  for (const input of document.querySelectorAll('input[placeholder], textarea[placeholder]')) {
    if (input.checkVisibility() && !input.closest(skip)) out.add(input.placeholder.trim());
  }
  return [...out];
})()`;

/** Horizontal overflow: the page wider than the window, or an element sticking out of its card. */
export const OVERFLOW = `(() => {
  const problems = [];
  const width = window.innerWidth;
  const page = document.documentElement.scrollWidth;
  if (page > width) problems.push('page is ' + page + 'px wide in a ' + width + 'px window');
  const name = (el) => el.tagName.toLowerCase() + (el.dataset.testid ? '[' + el.dataset.testid + ']' : '') +
    ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
  const clipped = (el, card) => {
    for (let p = el.parentElement; p && p !== card; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible') return true;
    }
    return false;
  };
  for (const card of document.querySelectorAll('.mantine-Card-root, .mantine-Modal-content')) {
    const box = card.getBoundingClientRect();
    if (box.width === 0) continue;
    for (const el of card.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).position === 'fixed') continue;
      const out = Math.max(r.right - box.right, box.left - r.left);
      if (out > 1 && !clipped(el, card)) problems.push(name(el) + ' sticks out of its card by ' + Math.round(out) + 'px');
    }
  }
  return [...new Set(problems)].slice(0, 10);
})()`;
