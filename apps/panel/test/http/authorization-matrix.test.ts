/**
 * Every registered panel route (Fastify's onRoute), on every dialect, sent a VALID request
 * (test/helpers/valid-requests.ts) by callers who must be refused and by callers who must be served — a status
 * below 400 (docs/security.md § Authorization). The routes that reach a node climb the same ladder against a
 * real daemon in e2e/authorization-matrix-proxy.test.ts; this suite proves every route has a valid request in
 * one table or the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyPanelPermissions } from '@hearth/contract';
import { buildTestApp, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { builderFor, routeCollector, RouteMatrix, type MatrixRoute } from '../helpers/route-matrix';
import { isOnANode, panelRequests, routesOnANode, serverRow } from '../helpers/valid-requests';

describe.each(DIALECTS)('authorization matrix on %s', (dialect) => {
  const { routes, onRoute } = routeCollector();
  let t: TestApp;
  let matrix: RouteMatrix;
  /** The routes this suite sends requests to (the others reach a node). */
  const here = () => routes.filter((r) => !isOnANode(r));

  beforeAll(async () => {
    t = await buildTestApp(dialect, {}, { onRoute });
    // Listening: the node link is a websocket route, opened over a real connection.
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as { port: number };
    matrix = await RouteMatrix.create({
      t,
      dialect,
      url: `http://127.0.0.1:${port}`,
      table: panelRequests,
      makeServer: (admin) => serverRow(t, admin),
    });
  });
  afterAll(async () => {
    await matrix?.close();
    await t?.close();
  });

  /** Runs the ladder of every route in `list`; every mismatch is listed at once. */
  const ladders = async (list: MatrixRoute[]) => {
    const problems: string[] = [];
    for (const route of list) problems.push(...(await matrix.check(route)));
    return problems;
  };

  it('collects the routes, and every one declares its permission', () => {
    expect(routes.length).toBeGreaterThan(30);
    const undeclared = routes.filter((r) => r.permission === undefined).map((r) => r.key);
    expect(undeclared).toEqual([]);
  });

  it('every route has a valid request: here, or against a real daemon when it reaches a node', () => {
    const registered = new Set(routes.map((r) => r.key));
    const missing = here()
      .filter((r) => !builderFor(panelRequests, r))
      .map((r) => r.key);
    expect(missing, 'routes without a valid request in valid-requests.ts').toEqual([]);
    const stale = Object.keys(panelRequests).filter((key) => !registered.has(key));
    expect(stale, 'entries for routes that are not registered').toEqual([]);
    const unregistered = routesOnANode.filter((key) => !registered.has(key));
    expect(unregistered, 'routesOnANode entries that are not registered').toEqual([]);
    const both = routesOnANode.filter((key) => key in panelRequests);
    expect(both, 'routes in both tables').toEqual([]);
  });

  it('public routes: a valid request is served anonymously', async () => {
    const list = here().filter((r) => r.permission === 'public');
    expect(list.length).toBeGreaterThan(10);
    expect(await ladders(list)).toEqual([]);
  });

  it('node routes: no node credential → 401, a user session is not one, the credential is served', async () => {
    const list = here().filter((r) => r.permission === 'node');
    expect(list.map((r) => r.key).sort()).toEqual([
      'GET /api/nodes/:id/package',
      'GET /api/nodes/link',
      'HEAD /api/nodes/:id/package',
      'POST /api/nodes/access',
      'POST /api/nodes/sftp-auth',
    ]);
    expect(await ladders(list)).toEqual([]);
  });

  it('authenticated routes: anonymous → 401; a logged-in user (with the server flag, on a server route) is served', async () => {
    const list = here().filter((r) => r.permission === 'authenticated');
    expect(list.length).toBeGreaterThan(20);
    expect(await ladders(list)).toEqual([]);
  });

  it('permission routes: anonymous → 401, without the flag → 403, holders of other flags → 403, the holder and an admin are served', async () => {
    const list = here().filter(
      (r) => r.permission !== 'public' && r.permission !== 'authenticated' && r.permission !== 'node',
    );
    expect(list.length).toBeGreaterThan(10);
    expect(await ladders(list)).toEqual([]);
  });

  it('session-only routes: an OAuth2 token → 403 ErrSessionRequired, a session is served; account management declares it', async () => {
    const sessionOnly = routes.filter((r) => r.sessionOnly);
    // The account itself (password, e-mail, username, two-factor, OAuth2 clients): docs/security.md.
    expect(sessionOnly.map((r) => r.key).sort()).toEqual([
      'DELETE /api/self/oauth2/:id',
      'DELETE /api/self/otp/:token',
      'DELETE /api/servers/:id/oauth2/:clientId',
      'POST /api/self/oauth2',
      'POST /api/self/otp',
      'POST /api/self/otp/recovery',
      'POST /api/servers/:id/oauth2',
      'PUT /api/self',
      'PUT /api/self/otp',
    ]);
    const { admin } = matrix;
    const client = await t.services.clients.create(admin.id, 'matrix', '');
    const apiToken = (await t.services.clients.token('127.0.0.1', client.id, client.secret)).access_token;
    const problems: string[] = [];
    for (const route of sessionOnly) {
      const build = builderFor(panelRequests, route);
      if (!build) throw new Error(`${route.key}: no valid request`);
      const byToken = await matrix.send(route, await build(matrix.context(admin, null)), {
        bearer: apiToken,
      });
      if (byToken.status !== 403 || byToken.code !== 'ErrSessionRequired') {
        problems.push(`${route.key} by an OAuth2 token: ${byToken.status} ${byToken.code ?? ''}`);
      }
      const session = { bearer: await matrix.session(admin) };
      const bySession = await matrix.send(route, await build(matrix.context(admin, null)), session);
      if (bySession.status >= 400) {
        problems.push(`${route.key} by a session: ${bySession.status} ${bySession.code ?? ''}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the permission set is the contract list (no stray names)', () => {
    const known = new Set<string>([
      'public',
      'authenticated',
      'node',
      ...Object.keys(emptyPanelPermissions()),
    ]);
    for (const r of routes) expect(known.has(String(r.permission)), r.key).toBe(true);
  });
});
