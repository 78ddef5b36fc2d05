/**
 * The panel's `/proxy/daemon/…` routes against the contract's permission table (docs/permissions.md): every
 * proxy route is one proxied row with the row's panel check, every proxied row has its route, and each route
 * refuses the anonymous (401), callers without access to the server (404), callers lacking the flag or panel
 * permission (403), and lets the holder through to the node.
 */
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  daemonRouteRows,
  panelNeedOf,
  serverPermissions,
  type DaemonRouteRow,
  type ServerPermission,
} from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { grant, seedServer } from '../servers/fixtures';

interface Collected {
  method: string;
  url: string;
  permission: unknown;
  server: unknown;
}

/** The panel's own refusals: a caller reaching the node gets none of these from the panel. */
const PANEL_REFUSALS = ['ErrNotLoggedIn', 'ErrSessionTimedOut', 'ErrNoPermission', 'ErrServerNotFound'];

const proxiedRows = daemonRouteRows().filter(
  (entry): entry is [(typeof entry)[0], DaemonRouteRow & { proxy: NonNullable<DaemonRouteRow['proxy']> }] =>
    entry[1].proxy !== undefined,
);

function urlOf(row: DaemonRouteRow & { proxy: { path: string } }, serverId: string): string {
  return row.proxy.path
    .replace(':id', serverId)
    .replace(':taskId', 'no-such-task')
    .replace(/\*$/, 'probe.txt');
}

describe('panel proxy routes ↔ permission table', () => {
  const collected: Collected[] = [];
  let t: TestApp;
  beforeAll(async () => {
    const onRoute = (r: RouteOptions) => {
      for (const method of [r.method].flat()) {
        collected.push({ method, url: r.url, permission: r.config?.permission, server: r.config?.server });
      }
    };
    t = await buildTestApp('sqlite', {}, { onRoute });
  });
  afterAll(() => t?.close());

  const proxyRoutes = () =>
    collected.filter((r) => r.url.startsWith('/proxy/daemon/') && r.method !== 'HEAD');

  it('registers every proxy route from exactly one row, with the row’s panel check', () => {
    expect(proxyRoutes().length).toBeGreaterThan(20);
    for (const route of proxyRoutes()) {
      const label = `${route.method} ${route.url}`;
      const rows = proxiedRows.filter(
        ([, row]) => row.method === route.method && row.proxy.path === route.url,
      );
      expect(rows.length, `${label} has no row in the permission table`).toBe(1);
      const row = rows[0]?.[1];
      if (!row) continue;
      expect({ permission: route.permission, server: route.server }, label).toEqual(panelNeedOf(row));
    }
  });

  it('has a route for every proxied row', () => {
    for (const [key, row] of proxiedRows) {
      const found = proxyRoutes().filter((r) => r.method === row.method && r.url === row.proxy.path);
      expect(found.length, key).toBe(1);
    }
  });
});

describe.each(DIALECTS)('panel proxy denials walk the table on %s', (dialect) => {
  let t: TestApp;
  let serverId: string;
  beforeAll(async () => {
    // The local node is not running: a call the panel lets through ends at the node link (offline).
    t = await buildTestApp(dialect, {}, { linkTimeouts: { connectMs: 500, responseMs: 1_000 } });
    serverId = await seedServer(t);
  });
  afterAll(() => t?.close());

  /** A user with `flags` on the server (no row at all when `flags` is null) and these panel permissions. */
  async function userWith(flags: ServerPermission[] | null, panel: Record<string, boolean> = {}) {
    const user = await createUser(t, panel);
    if (flags) await grant(t, user.id, serverId, flags);
    return user.token;
  }

  const hit = (row: DaemonRouteRow & { proxy: { path: string } }, token?: string) =>
    call(t, row.method, urlOf(row, serverId), {
      token,
      ...(row.method === 'GET' || row.method === 'DELETE' ? {} : { body: {} }),
    });

  const codeOf = (res: { body: string }) => {
    try {
      return (JSON.parse(res.body) as { error?: { code?: string } }).error?.code;
    } catch {
      return undefined;
    }
  };

  it.each(proxiedRows)('%s', async (key, row) => {
    const need = panelNeedOf(row);
    const label = `${row.method} ${row.proxy.path}`;
    const panel = need.permission === 'authenticated' ? {} : { [need.permission]: true };

    expect((await hit(row)).statusCode, `${label} anonymous`).toBe(401);
    // A panel admin has access to every server; anyone else without a row there is not told it exists.
    if (need.permission !== 'admin') {
      const stranger = await hit(row, await userWith(null, panel));
      expect([stranger.statusCode, codeOf(stranger)], `${label} without access`).toEqual([
        404,
        'ErrServerNotFound',
      ]);
    }
    if (need.server !== 'view') {
      const flag = need.server;
      const lacking = await hit(
        row,
        await userWith(
          serverPermissions.filter((p) => p !== flag),
          panel,
        ),
      );
      expect([lacking.statusCode, codeOf(lacking)], `${label} without ${flag}`).toEqual([
        403,
        'ErrNoPermission',
      ]);
    }
    if (need.permission !== 'authenticated') {
      const noPanelFlag = await hit(row, await userWith([...serverPermissions]));
      expect([noPanelFlag.statusCode, codeOf(noPanelFlag)], `${label} without ${need.permission}`).toEqual([
        403,
        'ErrNoPermission',
      ]);
    }
    const holder = await hit(row, await userWith(need.server === 'view' ? [] : [need.server], panel));
    expect(
      PANEL_REFUSALS,
      `${key}: ${label} with its need → ${holder.statusCode} ${holder.body}`,
    ).not.toContain(codeOf(holder));
    expect([401, 403], `${label} with its need`).not.toContain(holder.statusCode);
  });
});
