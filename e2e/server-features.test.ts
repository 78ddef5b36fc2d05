/**
 * `GET /api/servers/{id}` reports its node's features (the web's Tasks tab needs `features.tasks`), read from
 * the panel's cached probe of a real daemon's `GET /daemon/features`; off while the node is down/unknown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestApp } from '../apps/panel/test/helpers/app';
import { DIALECTS } from '../apps/panel/test/helpers/dialects';
import { waitFor } from '../apps/daemon/test/helpers/poll';
import {
  createFakeServer,
  panelWithNode,
  stopPanelWithNode,
  type RegisteredNode,
} from './helpers/node-fixture';

interface Detail {
  server: { features: { tasks: boolean; docker: boolean; environments: string[] } };
}

describe.each(DIALECTS)('server detail features from a real daemon on %s', (dialect) => {
  let t: TestApp;
  let node: RegisteredNode;
  let admin: string;
  let serverId: string;

  beforeAll(async () => {
    ({ t, admin, node } = await panelWithNode(dialect, 'feat-node'));
    serverId = await createFakeServer(t, admin, node.id, 'feat');
  });
  afterAll(() => stopPanelWithNode(t, node));

  it('an online node that supports tasks turns the flag on; a stopped one turns everything off', async () => {
    // The detail waits only briefly for the node's first probe (lists never wait on a node); on a loaded
    // machine that probe may answer later, so ask until it has.
    const features = await waitFor(async () => {
      const res = await call(t, 'GET', `/api/servers/${serverId}?perms`, { token: admin });
      expect(res.statusCode).toBe(200);
      const found = res.json<Detail>().server.features;
      return found.tasks ? found : null;
    }, 'the node probe to report its features');
    expect(features.tasks).toBe(true);
    expect(features.environments).toContain('standard');
    await node.daemon.close();
    t.services.nodeStatus.forget(node.id);
    const after = await call(t, 'GET', `/api/servers/${serverId}`, { token: admin });
    expect(after.statusCode).toBe(200);
    expect(after.json<Detail>().server.features).toEqual({ tasks: false, docker: false, environments: [] });
  });
});
