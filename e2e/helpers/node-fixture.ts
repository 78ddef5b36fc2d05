/**
 * A panel (in-process, listening on loopback) with real daemons registered as nodes from their deployment
 * configs — the path an operator takes. Shared by the nodes/servers e2e suites.
 */
import type { RunningDaemon } from '@hearth/daemon';
import type { DialectName } from '../../apps/panel/src/db';
import type { AppDeps } from '../../apps/panel/src/app';
import { fakeGameDefinition } from '../../apps/daemon/test/helpers/test-daemon';
import { buildTestApp, call, createUser, type TestApp } from '../../apps/panel/test/helpers/app';
import { startDaemonFromDeployment } from './daemon-node';

export const codeOf = (res: { json: () => unknown }) =>
  (res.json() as { error?: { code?: string } }).error?.code;

export interface RegisteredNode {
  id: string;
  daemon: RunningDaemon;
  host: string;
  /** Where the daemon keeps `<id>.json` definitions. */
  serversDir: string;
}

/**
 * Creates a node, deploys a daemon on `host` from the node's deployment config, points the node at it. The
 * config comes from a rotation (with the node secret, so the daemon serves SFTP) unless `withSecret` is false.
 */
export async function registerNode(
  t: TestApp,
  admin: string,
  name: string,
  host = '127.0.0.1',
  { withSecret = true } = {},
) {
  const node = { name, publicHost: host, publicPort: 1, privateHost: host, privatePort: 1, sftpPort: 2 };
  const id = (await call(t, 'POST', '/api/nodes', { token: admin, body: node })).json<{ id: string }>().id;
  const deployment = withSecret
    ? await call(t, 'POST', `/api/nodes/${id}/deployment/rotate`, { token: admin })
    : await call(t, 'GET', `/api/nodes/${id}/deployment`, { token: admin });
  const { config } = deployment.json<{ config: Record<string, unknown> }>();
  const { daemon, serversDir } = await startDaemonFromDeployment(config, { host });
  await call(t, 'PUT', `/api/nodes/${id}`, {
    token: admin,
    body: { privatePort: daemon.port, publicPort: daemon.port },
  });
  return { id, daemon, host, serversDir } satisfies RegisteredNode;
}

/** A panel built on `dialect`, listening on 127.0.0.1 (websocket clients need a real port). */
export async function listeningPanel(dialect: DialectName, deps: Omit<AppDeps, 'db'> = {}) {
  const t = await buildTestApp(dialect, {}, deps);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { t, url: `http://127.0.0.1:${port}` };
}

export interface PanelWithNode {
  t: TestApp;
  /** An administrator's session token. */
  admin: string;
  node: RegisteredNode;
}

/** The panel built on `dialect`, an administrator, and one node registered with its daemon (see registerNode). */
export async function panelWithNode(
  dialect: DialectName,
  nodeName: string,
  options: { withSecret?: boolean } = {},
): Promise<PanelWithNode> {
  const t = await buildTestApp(dialect);
  try {
    const admin = (await createUser(t, { admin: true })).token;
    const node = await registerNode(t, admin, nodeName, '127.0.0.1', options);
    return { t, admin, node };
  } catch (err) {
    await t.close();
    throw err;
  }
}

/** Closes the node's daemon, then the panel (either may be missing when the set-up failed). */
export async function stopPanelWithNode(t?: TestApp, node?: RegisteredNode): Promise<void> {
  await node?.daemon.close();
  await t?.close();
}

/** A server of the fake game on `nodeId`, created as `token`; its id. */
export async function createFakeServer(
  t: TestApp,
  token: string,
  nodeId: string,
  name: string,
): Promise<string> {
  const body = { ...fakeGameDefinition(), name, node: nodeId, users: [] };
  return (await call(t, 'POST', '/api/servers', { token, body })).json<{ id: string }>().id;
}
