/**
 * The authorization matrix of the panel routes that reach a node (the daemon proxy, the live socket, a node's
 * features, server create and delete), on every dialect, against a real daemon registered from its deployment:
 * each route is sent its VALID request (e2e/helpers/valid-proxy-requests.ts) by callers who must be refused —
 * anonymous 401, missing panel flag 403, no access to the server 404, access without the server flag 403 — and
 * by callers who must be served, a status below 400. The other routes climb the same ladder in
 * apps/panel/test/http/authorization-matrix.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { call, createUser, type TestApp } from '../apps/panel/test/helpers/app';
import { DIALECTS } from '../apps/panel/test/helpers/dialects';
import { builderFor, routeCollector, RouteMatrix } from '../apps/panel/test/helpers/route-matrix';
import { isOnANode, routesOnANode, unique } from '../apps/panel/test/helpers/valid-requests';
import { listeningPanel, registerNode, stopPanelWithNode, type RegisteredNode } from './helpers/node-fixture';
import { knownProxyRefusals, proxyRequests } from './helpers/valid-proxy-requests';

describe.each(DIALECTS)('authorization matrix of the routes on a node, on %s', (dialect) => {
  const { routes, onRoute } = routeCollector();
  let t: TestApp;
  let node: RegisteredNode;
  let matrix: RouteMatrix;
  let table: ReturnType<typeof proxyRequests>;
  const onANode = () => routes.filter(isOnANode);

  beforeAll(async () => {
    const panel = await listeningPanel(dialect, { onRoute });
    t = panel.t;
    node = await registerNode(t, (await createUser(t, { admin: true })).token, 'matrix');
    table = proxyRequests(node.id);
    matrix = await RouteMatrix.create({
      t,
      dialect,
      url: panel.url,
      table,
      knownRefusals: knownProxyRefusals,
      // A server of the fake game on the node, created by an administrator (a whole definition).
      makeServer: async (admin) => {
        const body = { ...fakeGameDefinition(), name: unique('srv'), node: node.id, users: [] };
        const res = await call(t, 'POST', '/api/servers', { token: await matrix.session(admin), body });
        if (res.statusCode !== 200) throw new Error(`create a server: ${res.statusCode} ${res.body}`);
        return res.json<{ id: string }>().id;
      },
    });
  });
  afterAll(async () => {
    await matrix?.close();
    await stopPanelWithNode(t, node);
  });

  it('every route on a node is registered and has its valid request here', () => {
    const registered = new Set(routes.map((r) => r.key));
    expect(routesOnANode.filter((key) => !registered.has(key))).toEqual([]);
    expect(
      onANode()
        .filter((r) => !builderFor(table, r))
        .map((r) => r.key),
    ).toEqual([]);
    // Every proxy route reaches a node, so a new one belongs in this table.
    const proxied = routes.filter((r) => r.url.startsWith('/proxy/')).filter((r) => !isOnANode(r));
    expect(proxied.map((r) => r.key)).toEqual([]);
    const refusals = Object.keys(knownProxyRefusals);
    expect(
      refusals.filter((key) => !registered.has(key)),
      'known refusals of unregistered routes',
    ).toEqual([]);
  });

  // Every caller of the ladder × ~60 routes against a real daemon, one after another: minutes on a loaded machine.
  it(
    'each route refuses anonymous, flagless and serverless callers, and serves holders and admins',
    { timeout: 600_000 },
    async () => {
      const list = onANode();
      expect(list.length).toBeGreaterThanOrEqual(routesOnANode.length);
      const problems: string[] = [];
      for (const route of list) problems.push(...(await matrix.check(route)));
      expect(problems).toEqual([]);
    },
  );
});
