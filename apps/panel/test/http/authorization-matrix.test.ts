import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyPanelPermissions, panelPermissions, type PanelPermission } from '@hearth/contract';
import type { RoutePermission } from '../../src/app-types';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';

interface CollectedRoute {
  method: string;
  url: string;
  readonly permission: RoutePermission | undefined;
  readonly sessionOnly: boolean;
}

/** Dummy values for path parameters: enough to reach the route's authorization step. */
function concreteUrl(url: string): string {
  return url
    .replace(':key', 'panel.settings.companyName')
    .replace(':file', 'hearth.tar')
    .replace(':token', '123456')
    .replace(/:(\w+)/g, 'x')
    .replace(/\*$/, 'x');
}

describe.each(DIALECTS)('authorization matrix on %s', (dialect) => {
  const routes: CollectedRoute[] = [];
  let t: TestApp;
  const holders = new Map<PanelPermission, string>();
  let nobody: string;
  let admin: string;

  beforeAll(async () => {
    // Read the permission lazily: plugin scopes (markPublic) may still set it after this hook ran.
    const onRoute = (r: RouteOptions) => {
      for (const method of [r.method].flat()) {
        routes.push({
          method,
          url: r.url,
          get permission() {
            return r.config?.permission;
          },
          get sessionOnly() {
            return r.config?.sessionOnly === true;
          },
        });
      }
    };
    t = await buildTestApp(dialect, {}, { onRoute });
    nobody = (await createUser(t)).id;
    admin = (await createUser(t, { admin: true })).id;
    for (const flag of panelPermissions) holders.set(flag, (await createUser(t, { [flag]: true })).id);
  });
  afterAll(() => t?.close());

  /** A fresh session per request: some routes (logout, reauth) spend the token they are called with. */
  const as = async (userId: string) => (await t.services.sessions.issue(userId)).token;
  const hit = async (route: CollectedRoute, userId?: string) =>
    call(t, route.method, concreteUrl(route.url), {
      token: userId ? await as(userId) : undefined,
      ...(route.method === 'GET' || route.method === 'HEAD' || route.method === 'DELETE' ? {} : { body: {} }),
    });

  it('collects the routes, and every one declares its permission', () => {
    expect(routes.length).toBeGreaterThan(30);
    const undeclared = routes.filter((r) => r.permission === undefined).map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
  });

  it('public routes never ask for a login', async () => {
    for (const route of routes.filter((r) => r.permission === 'public' && r.method !== 'OPTIONS')) {
      const res = await hit(route);
      expect([401, 403], `${route.method} ${route.url} → ${res.statusCode}`).not.toContain(res.statusCode);
    }
  });

  it('node routes: no node credential → 401, and a user session is not one', async () => {
    const nodeRoutes = routes.filter((r) => r.permission === 'node');
    expect(nodeRoutes.length).toBeGreaterThan(0);
    for (const route of nodeRoutes) {
      expect((await hit(route)).statusCode, `${route.method} ${route.url}`).toBe(401);
      expect((await hit(route, admin)).statusCode, `${route.method} ${route.url} as admin`).toBe(401);
    }
  });

  it('authenticated routes: anonymous → 401, any logged-in user passes', async () => {
    for (const route of routes.filter((r) => r.permission === 'authenticated')) {
      expect((await hit(route)).statusCode, `${route.method} ${route.url}`).toBe(401);
      const res = await hit(route, nobody);
      expect([401, 403], `${route.method} ${route.url} → ${res.statusCode}`).not.toContain(res.statusCode);
    }
  });

  it('permission routes: anonymous → 401, without it → 403, with it (or admin) → allowed', async () => {
    const guarded = routes.filter(
      (r) => r.permission !== 'public' && r.permission !== 'authenticated' && r.permission !== 'node',
    );
    expect(guarded.length).toBeGreaterThan(10);
    for (const route of guarded) {
      const flag = route.permission as PanelPermission;
      const label = `${route.method} ${route.url} (${flag})`;
      expect((await hit(route)).statusCode, label).toBe(401);
      expect((await hit(route, nobody)).statusCode, label).toBe(403);
      for (const other of panelPermissions.filter((p) => p !== flag && p !== 'admin').slice(0, 3)) {
        expect((await hit(route, holders.get(other))).statusCode, `${label} as ${other}`).toBe(403);
      }
      for (const allowed of [holders.get(flag), admin]) {
        const res = await hit(route, allowed);
        expect([401, 403], `${label} → ${res.statusCode}`).not.toContain(res.statusCode);
      }
    }
  });

  it('session-only routes: an OAuth2 token → 403 ErrSessionRequired, a session passes; account management declares it', async () => {
    const sessionOnly = routes.filter((r) => r.sessionOnly);
    // The account itself (password, e-mail, username, two-factor, OAuth2 clients): docs/security.md.
    expect(sessionOnly.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'DELETE /api/self/oauth2/:id',
      'DELETE /api/self/otp/:token',
      'DELETE /api/servers/:id/oauth2/:clientId',
      'POST /api/self/oauth2',
      'POST /api/self/otp',
      'POST /api/servers/:id/oauth2',
      'PUT /api/self',
      'PUT /api/self/otp',
    ]);
    const client = await t.services.clients.create(admin, 'matrix', '');
    const apiToken = (await t.services.clients.token('127.0.0.1', client.id, client.secret)).access_token;
    for (const route of sessionOnly) {
      const label = `${route.method} ${route.url}`;
      const res = await call(t, route.method, concreteUrl(route.url), {
        token: apiToken,
        ...(route.method === 'DELETE' ? {} : { body: {} }),
      });
      expect([res.statusCode, res.json<{ error: { code: string } }>().error.code], label).toEqual([
        403,
        'ErrSessionRequired',
      ]);
      const bySession = await hit(route, admin);
      expect([401, 403], `${label} → ${bySession.statusCode}`).not.toContain(bySession.statusCode);
    }
  });

  it('the permission set is the contract list (no stray names)', () => {
    const known = new Set<string>([
      'public',
      'authenticated',
      'node',
      ...Object.keys(emptyPanelPermissions()),
    ]);
    for (const r of routes) expect(known.has(String(r.permission)), `${r.method} ${r.url}`).toBe(true);
  });
});
