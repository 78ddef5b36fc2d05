/**
 * A real panel with real daemons started from their nodes' deployment configs (the path an operator takes),
 * driven over HTTP, and servers of the fake game on them. Shared by the browser suites that need a live server.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { parseDaemonConfig, startDaemon, type DaemonDeps, type RunningDaemon } from '@hearth/daemon';
import { fakeGameDefinition } from '../../apps/daemon/test/helpers/test-daemon';
import { createFirstAdmin, panelApi, startTestPanel, type Account, type TestPanel } from './panel';

// Re-exported: the suites that drive daemons take it from here with the rest.
export { panelApi };

export interface NodeDaemon {
  daemon: RunningDaemon;
  /** Where the daemon keeps each server's files (`<serversDir>/<server id>`). */
  serversDir: string;
}

/**
 * The deployment file as written to the node, on loopback with a free port and a temp data dir; `deps` as
 * startDaemon takes them (a task suite's scheduler clock).
 */
export async function startDaemonFromDeployment(
  config: Record<string, unknown>,
  overrides: Record<string, unknown> = {},
  deps: DaemonDeps = {},
): Promise<NodeDaemon> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-node-'));
  const daemonConfig = parseDaemonConfig({
    ...config,
    host: '127.0.0.1',
    port: 0,
    dataDir,
    logLevel: 'silent',
    // A config issued with a secret serves SFTP: on loopback, a free port (several daemons run side by side).
    sftp: { ...(config.sftp as object | undefined), host: '127.0.0.1', port: 0 },
    ...overrides,
  });
  const daemon = await startDaemon(daemonConfig, pino({ level: 'silent' }), deps);
  return { daemon, serversDir: daemonConfig.serversDir ?? join(dataDir, 'servers') };
}

/** Adds a node over HTTP, starts its daemon from the node's deployment config and points the node at it. */
export async function addNodeWithDaemon(
  panel: TestPanel,
  token: string,
  name: string,
  overrides: Record<string, unknown> = {},
): Promise<NodeDaemon & { nodeId: string }> {
  const node = { name, publicHost: '127.0.0.1', publicPort: 1, privateHost: '127.0.0.1', privatePort: 1 };
  const { id } = await panelApi<{ id: string }>(panel, token, 'POST', '/api/nodes', { ...node, sftpPort: 2 });
  const deployment = `/api/nodes/${id}/deployment`;
  const { config } = await panelApi<{ config: Record<string, unknown> }>(panel, token, 'GET', deployment);
  // The panel listens on a port picked at start, which its deployment's fallback URL cannot know: the node
  // reaches it at its real address (tasks ask it for their owner's access, SFTP for logins).
  const started = await startDaemonFromDeployment(config, { panelUrl: panel.url, ...overrides });
  const port = started.daemon.port;
  await panelApi(panel, token, 'PUT', `/api/nodes/${id}`, { privatePort: port, publicPort: port });
  return { ...started, nodeId: id };
}

export interface PanelWithDaemon extends NodeDaemon {
  panel: TestPanel;
  admin: Account;
  nodeId: string;
  /** Stops the daemon, then the panel. */
  stop(): Promise<void>;
}

/** A real panel, its first administrator, and one node (`nodeName`) whose daemon runs. */
export async function startPanelWithDaemon(nodeName: string): Promise<PanelWithDaemon> {
  const panel = await startTestPanel();
  const admin = await createFirstAdmin(panel);
  const node = await addNodeWithDaemon(panel, admin.session, nodeName);
  return {
    ...node,
    panel,
    admin,
    stop: async () => {
      await node.daemon.close();
      await panel.stop();
    },
  };
}

/** Creates a server of the fake game on the node and installs it (then starts it with `start`); its id. */
export async function createFakeGameServer(
  live: Pick<PanelWithDaemon, 'panel' | 'admin' | 'nodeId'>,
  name: string,
  { start = false } = {},
): Promise<string> {
  const { panel, admin } = live;
  const body = { ...fakeGameDefinition(), name, node: live.nodeId, users: [] };
  const { id } = await panelApi<{ id: string }>(panel, admin.session, 'POST', '/api/servers', body);
  await panelApi(panel, admin.session, 'POST', `/proxy/daemon/server/${id}/install?wait=true`);
  if (start) await panelApi(panel, admin.session, 'POST', `/proxy/daemon/server/${id}/start?wait=true`);
  return id;
}

/** A new user `viewer` with only `permissions` on the server, signed in; their session and scopes. */
export async function signInServerViewer(
  live: Pick<PanelWithDaemon, 'panel' | 'admin'>,
  serverId: string,
  permissions: Record<string, boolean>,
): Promise<{ session: string; scopes: string[] }> {
  const { panel, admin } = live;
  const viewer = { username: 'viewer', email: 'viewer@example.com', password: 'viewer-password-1' };
  await panelApi(panel, admin.session, 'POST', '/api/users', viewer);
  await panelApi(panel, admin.session, 'PUT', `/api/servers/${serverId}/user/${viewer.email}`, permissions);
  const login = await fetch(`${panel.url}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: viewer.email, password: viewer.password }),
  });
  return (await login.json()) as { session: string; scopes: string[] };
}
