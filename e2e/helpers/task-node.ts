/**
 * A listening panel with one node whose daemon was started from the node's deployment config, its panel URL
 * pointed at that panel (so tasks can ask their owner's access: docs/daemon.md § Tasks), its task scheduler on a
 * clock the suite moves (real 5-field schedules fire when it crosses their due minute), and a fake-game server on
 * it. Users get flags on that server through the panel's own API.
 */
import { join } from 'node:path';
import type { RunningDaemon } from '@hearth/daemon';
import { ManualClock } from '../../apps/daemon/test/helpers/manual-clock';
import type { DialectName } from '../../apps/panel/src/db';
import { call, createUser, type TestApp, type TestUser } from '../../apps/panel/test/helpers/app';
import { startDaemonFromDeployment } from './daemon-node';
import { createFakeServer, listeningPanel } from './node-fixture';

export interface TaskNode {
  t: TestApp;
  panelUrl: string;
  admin: TestUser;
  nodeId: string;
  daemon: RunningDaemon;
  /** The daemon's task-scheduler clock (kept across restartDaemon): `* * * * *` fires at each minute it crosses. */
  clock: ManualClock;
  /** `<serversDir>/<server id>` is the server's folder. */
  serversDir: string;
  serverId: string;
  /** The daemon's data dir (a second daemon on it resumes the same tasks). */
  dataDir: string;
  /** A new user holding exactly `flags` on the server. */
  user(flags: Record<string, boolean>, panelFlags?: Record<string, boolean>): Promise<TestUser>;
  /** Replaces a user's flags on the server (the admin's `PUT /api/servers/{id}/user/{email}`). */
  grant(email: string, flags: Record<string, boolean>): Promise<void>;
  /** Stops the daemon and starts another from the same deployment and data dir; the node points at it. */
  restartDaemon(): Promise<void>;
  close(): Promise<void>;
}

export async function taskNode(dialect: DialectName = 'sqlite'): Promise<TaskNode> {
  const { t, url } = await listeningPanel(dialect);
  try {
    const admin = await createUser(t, { admin: true });
    const body = { name: 'tasks', publicHost: '127.0.0.1', publicPort: 1, privateHost: '127.0.0.1' };
    const created = await call(t, 'POST', '/api/nodes', {
      token: admin.token,
      body: { ...body, privatePort: 1, sftpPort: 2 },
    });
    const nodeId = created.json<{ id: string }>().id;
    const rotated = await call(t, 'POST', `/api/nodes/${nodeId}/deployment/rotate`, { token: admin.token });
    const { config } = rotated.json<{ config: Record<string, unknown> }>();
    const overrides = { panelUrl: url, tasks: { timeZone: '' } };
    const clock = new ManualClock();
    let node = await startDaemonFromDeployment(config, overrides, { clock });
    const dataDir = join(node.serversDir, '..');
    const pointAt = (port: number) =>
      call(t, 'PUT', `/api/nodes/${nodeId}`, {
        token: admin.token,
        body: { privatePort: port, publicPort: port },
      });
    await pointAt(node.daemon.port);
    const serverId = await createFakeServer(t, admin.token, nodeId, 'tasks one');
    if (!serverId) throw new Error('the fake-game server was not created');
    const grant = async (email: string, flags: Record<string, boolean>) => {
      const res = await call(t, 'PUT', `/api/servers/${serverId}/user/${encodeURIComponent(email)}`, {
        token: admin.token,
        body: flags,
      });
      if (res.statusCode !== 204) throw new Error(`grant failed: ${res.statusCode} ${res.body}`);
    };
    return {
      t,
      panelUrl: url,
      admin,
      nodeId,
      get daemon() {
        return node.daemon;
      },
      clock,
      serversDir: node.serversDir,
      serverId,
      dataDir,
      user: async (flags, panelFlags = {}) => {
        const u = await createUser(t, panelFlags);
        await grant(u.email, flags);
        return u;
      },
      grant,
      restartDaemon: async () => {
        await node.daemon.close();
        node = await startDaemonFromDeployment(config, { ...overrides, dataDir }, { clock });
        await pointAt(node.daemon.port);
      },
      close: async () => {
        await node.daemon.close();
        await t.close();
      },
    };
  } catch (err) {
    await t.close();
    throw err;
  }
}
