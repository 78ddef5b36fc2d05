/**
 * A listening panel with one real daemon whose SFTP server authenticates through the panel (the node
 * credential from `deployment/rotate`), one server on it, and users with chosen server permissions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { parseDaemonConfig, startDaemon, type RunningDaemon } from '@hearth/daemon';
import type { DialectName } from '../../apps/panel/src/db';
import { call, createUser, type TestApp } from '../../apps/panel/test/helpers/app';
import { fakeGameDefinition } from '../../apps/daemon/test/helpers/test-daemon';
import { listeningPanel } from './node-fixture';

export interface FilesFixture {
  t: TestApp;
  panelUrl: string;
  daemon: RunningDaemon;
  admin: { token: string; email: string; password: string };
  nodeId: string;
  /** The node credential's secret (the daemon's `sftp.clientSecret`). */
  nodeSecret: string;
  serverId: string;
  serverRoot: string;
  sftpPort: number;
  user(perms: Record<string, boolean>): Promise<{ token: string; email: string; password: string }>;
  close(): Promise<void>;
}

export interface FilesFixtureOptions {
  recheckMs?: number;
  /** The daemon's `sftp.failuresPerMinute` (its default when absent). */
  failuresPerMinute?: number;
  /** The panel URL the daemon is given, from the panel's own (e.g. a proxy in front of the panel). */
  daemonPanelUrl?: (panelUrl: string) => Promise<string>;
  /** The daemon's logger (silent when absent). */
  log?: Logger;
}

export async function filesFixture(
  dialect: DialectName = 'sqlite',
  opts: FilesFixtureOptions = {},
): Promise<FilesFixture> {
  const { t, url } = await listeningPanel(dialect);
  const admin = await createUser(t, { admin: true });
  const node = {
    name: 'files',
    publicHost: '127.0.0.1',
    publicPort: 1,
    privateHost: '127.0.0.1',
    privatePort: 1,
    sftpPort: 2,
  };
  const nodeId = (await call(t, 'POST', '/api/nodes', { token: admin.token, body: node })).json<{
    id: string;
  }>().id;
  const deployment = (
    await call(t, 'POST', `/api/nodes/${nodeId}/deployment/rotate`, { token: admin.token })
  ).json<{
    config: Record<string, unknown>;
    clientSecret: string;
  }>();
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-files-node-'));
  const config = parseDaemonConfig({
    ...deployment.config,
    host: '127.0.0.1',
    port: 0,
    dataDir,
    panelUrl: opts.daemonPanelUrl ? await opts.daemonPanelUrl(url) : url,
    logLevel: 'silent',
    sftp: {
      host: '127.0.0.1',
      port: 0,
      clientSecret: deployment.clientSecret,
      recheckMs: opts.recheckMs ?? 500,
      ...(opts.failuresPerMinute ? { failuresPerMinute: opts.failuresPerMinute } : {}),
    },
  });
  const daemon = await startDaemon(config, opts.log ?? pino({ level: 'silent' }));
  await call(t, 'PUT', `/api/nodes/${nodeId}`, {
    token: admin.token,
    body: { privatePort: daemon.port, publicPort: daemon.port },
  });
  const body = { ...fakeGameDefinition(), name: 'files one', node: nodeId, users: [] };
  const serverId = (await call(t, 'POST', '/api/servers', { token: admin.token, body })).json<{
    id: string;
  }>().id;
  return {
    t,
    panelUrl: url,
    daemon,
    admin,
    nodeId,
    nodeSecret: deployment.clientSecret,
    serverId,
    serverRoot: join(config.serversDir ?? join(dataDir, 'servers'), serverId),
    sftpPort: daemon.sftpPort ?? 0,
    user: async (perms) => {
      const u = await createUser(t);
      const res = await call(t, 'PUT', `/api/servers/${serverId}/user/${encodeURIComponent(u.email)}`, {
        token: admin.token,
        body: perms,
      });
      if (res.statusCode !== 204) throw new Error(`grant failed: ${res.statusCode} ${res.body}`);
      return u;
    },
    close: async () => {
      await daemon.close();
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
