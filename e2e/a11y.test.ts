/**
 * Accessibility scan: every route of the web app's route table (e2e/helpers/route-walk.ts, as `npm run
 * screenshots` walks it), signed out for the public pages and as the administrator for the rest, every tab of a
 * running server's page, in light and in dark mode. axe-core checks each page; any violation of impact
 * "critical" or "serious" fails the test and is printed with its rule, the elements, the path and the mode.
 *
 * axe-core is injected as its own source (`axe.source`, evaluated in the page) and run with `axe.run()`. That is
 * what `@axe-core/playwright`'s AxeBuilder does underneath: it evaluates the same `axe.source` in each frame, then
 * `axe.run` with the chosen context and options, and returns the same results object. The wrapper adds only a
 * builder API and frame stitching, and the web app has no iframes, so the plain injection checks exactly the same
 * rules without another dependency. (Evaluated rather than added as a `<script>` tag: the panel's Content
 * Security Policy, `script-src 'self'`, rightly refuses inline scripts, and loosening it for the test through
 * `bypassCSP` would scan a page the users never get.)
 *
 * One browser; one context per mode; navigation between routes is client-side (the injected axe stays).
 */
import axe from 'axe-core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { browserAvailable, launchBrowser } from './helpers/browser';
import {
  createFakeGameServer,
  panelApi,
  startPanelWithDaemon,
  type PanelWithDaemon,
} from './helpers/daemon-node';
import { walkPaths } from './helpers/route-walk';
import { navigate, signIn } from './i18n/fixture';

const canRun = browserAvailable('accessibility scan');

interface Finding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Runs axe on the whole document; the critical and serious violations, each with the elements it names. */
const RUN_AXE = `axe.run(document, { resultTypes: ['violations'] }).then((results) =>
  results.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 8).map((n) => n.target.join(' ') + (n.failureSummary ? ' — ' + n.failureSummary.split('\\n').slice(1).join(' ').trim() : '')),
    })),
)`;

/** `navigate` (client-side, waits for the route's page to settle); on failure, says where the page is instead. */
async function go(page: Page, path: string, reload: boolean): Promise<void> {
  try {
    await navigate(page, path, reload);
  } catch (err) {
    const where = await page.evaluate(
      `location.pathname + ' ' + [...document.querySelectorAll('[data-route]')].map((e) => e.dataset.route) + ' ' + document.body.innerText.slice(0, 200)`,
    );
    throw new Error(`${path}: ${String(err)}\nthe page shows ${JSON.stringify(where)}`);
  }
}

async function scan(page: Page): Promise<Finding[]> {
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) {
    await page.evaluate(axe.source);
  }
  return page.evaluate<Finding[]>(RUN_AXE);
}

describe.runIf(canRun)('accessibility: no critical or serious axe violation on any route', () => {
  let live: PanelWithDaemon;
  let signedIn: string[];
  let publicPaths: string[];

  beforeAll(async () => {
    live = await startPanelWithDaemon('node-a11y');
    const { panel, admin } = live;
    const { run, ...rest } = fakeGameDefinition();
    const template = { ...rest, run, supportedEnvironments: [{ type: 'standard' }] };
    await panelApi(panel, admin.session, 'PUT', '/api/templates/fake-game', template);
    const server = await createFakeGameServer(live, 'a11y-game', { start: true });
    const self = await panelApi<{ id: string }>(panel, admin.session, 'GET', '/api/self');
    const paths = walkPaths({ server, user: self.id, node: live.nodeId, template: 'fake-game' });
    publicPaths = paths.filter((p) => p.public).map((p) => p.path);
    signedIn = paths.filter((p) => !p.public).map((p) => p.path);
  });

  afterAll(async () => {
    await live?.stop();
  });

  it('light and dark', async ({ expect }) => {
    const browser = await launchBrowser();
    const findings: string[] = [];
    const pageErrors: string[] = [];
    const visited: string[] = [];
    try {
      for (const mode of ['light', 'dark'] as const) {
        const context: BrowserContext = await browser.newContext({
          baseURL: live.panel.url,
          locale: 'en-US',
          colorScheme: mode,
          viewport: { width: 1440, height: 900 },
        });
        try {
          await context.addInitScript(`localStorage.setItem('dark', '${mode === 'dark'}')`);
          const page = await context.newPage();
          page.on('pageerror', (err) => pageErrors.push(err.message));
          const check = async (path: string) => {
            const scheme = await page.evaluate('document.documentElement.dataset.mantineColorScheme');
            expect(scheme, `${path} (${mode})`).toBe(mode);
            visited.push(`${path} (${mode})`);
            for (const f of await scan(page)) {
              findings.push(
                `[${mode}] ${path} ${f.impact} ${f.id}: ${f.help}\n    ${f.targets.join('\n    ')}`,
              );
            }
          };
          for (const [i, path] of publicPaths.entries()) {
            await go(page, path, i === 0);
            await check(path);
          }
          await signIn(context, live.panel.url, live.admin);
          for (const [i, path] of signedIn.entries()) {
            await go(page, path, i === 0);
            await check(path);
            if (!path.startsWith('/server/')) continue;
            // Every tab the administrator sees on a running server, read from the bar (new tabs are covered).
            const tabs = await page.evaluate<string[]>(
              `[...document.querySelectorAll('[data-testid="server-tabs"] [data-tab]')].map((el) => el.dataset.tab)`,
            );
            expect(tabs.length, 'server tabs').toBeGreaterThan(5);
            for (const tab of tabs.filter((id) => id !== 'console')) {
              await go(page, `${path}?tab=${tab}`, false);
              await page.getByTestId(`tab-${tab}`).waitFor();
              await check(`${path}?tab=${tab}`);
            }
          }
        } finally {
          await context.close();
        }
      }
    } finally {
      await browser.close();
    }
    if (findings.length > 0) console.error(`axe found:\n${findings.join('\n')}`);
    expect(findings).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(visited.length).toBeGreaterThan(40);
  }, 600_000);
});
