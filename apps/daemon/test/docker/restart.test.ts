/**
 * The daemon killed with SIGKILL while a docker server runs: after a restart the running container is
 * re-attached (console and stats resume, same container, no duplicate), a container whose server was deleted
 * meanwhile is removed, and deleting a server removes its container.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/poll';
import { TestSocket } from '../helpers/socket';
import { DaemonProcess } from './daemon-process';
import { containersOf, docker, dockerGameDefinition, removeContainersOf, requireDocker } from './helpers';

const available = await requireDocker();

describe.skipIf(!available)('docker re-attach after a daemon SIGKILL', { timeout: 120_000 }, () => {
  let d: DaemonProcess;
  const id = `dkeep-${process.pid}`;
  const gone = `dgone-${process.pid}`;

  beforeAll(async () => {
    d = await DaemonProcess.create();
    await d.start();
  });
  afterAll(async () => {
    if (!d) return;
    await d.cleanup();
    await removeContainersOf(d.serversDir);
  });

  async function createAndStart(serverId: string): Promise<void> {
    expect((await d.request('PUT', `/daemon/server/${serverId}`, dockerGameDefinition())).status).toBe(200);
    expect((await d.request('POST', `/daemon/server/${serverId}/install?wait=true`)).status).toBe(204);
    expect((await d.request('POST', `/daemon/server/${serverId}/start?wait=true`)).status).toBe(204);
  }
  const running = async () => (await containersOf(d.serversDir)).filter((c) => c.State === 'running');

  it('re-attaches to the running container; a deleted server’s container is removed', async () => {
    await createAndStart(id);
    await createAndStart(gone);
    const before = await docker.getContainer(`hearth-${id}`).inspect();
    await d.stop('SIGKILL');
    expect((await running()).length).toBe(2); // the containers outlive the daemon

    await rm(join(d.serversDir, `${gone}.json`)); // deleted while the daemon was down
    await d.start();
    const socket = await TestSocket.open(d.url, id, await d.admin());
    const status = await d.request('GET', `/daemon/server/${id}/status`);
    expect(await status.json()).toMatchObject({ running: true });
    expect((await running()).map((c) => c.Names[0])).toEqual([`/hearth-${id}`]);
    expect((await docker.getContainer(`hearth-${id}`).inspect()).Id).toBe(before.Id);

    socket.send({ type: 'replay', since: 0 });
    await socket.waitForConsole(
      new RegExp(
        `Re-attached to the running container hearth-${id}; its last 100 lines:[^\\n]*\\n[^]*fake-game ready`,
      ),
    );
    socket.send({ type: 'console', command: 'still there' });
    await socket.waitForConsole('echo: still there');
    const stats = await waitFor(async () => {
      const s = (await (await d.request('GET', `/daemon/server/${id}/stats`)).json()) as { memory: number };
      return s.memory > 0 ? s : null;
    }, 'stats');
    expect(stats.memory).toBeGreaterThan(0);

    expect((await d.request('POST', `/daemon/server/${id}/stop?wait=true`)).status).toBe(204);
    await socket.waitForConsole('Stopped on request; no automatic restart.');
    expect(await containersOf(d.serversDir)).toEqual([]);
    socket.close();
  });

  it('a graceful shutdown stops the container and the daemon process ends by itself', async () => {
    expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
    await d.stop('SIGTERM'); // resolves only when the process has exited
    expect(await containersOf(d.serversDir)).toEqual([]);
    await d.start();
  });

  it('removes the container when a running server is deleted', async () => {
    expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
    expect((await running()).length).toBe(1);
    expect((await d.request('DELETE', `/daemon/server/${id}`)).status).toBe(204);
    expect(await containersOf(d.serversDir)).toEqual([]);
  });
});
