/**
 * Boot's container cleanup without Dockerode on the start path (manager/docker-labelled.ts): the engine is asked
 * with one plain request whether this daemon has containers at all; when it has, a container whose server no
 * longer exists is still removed at boot, and containers of another servers folder are left alone.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasLabelledContainers } from '../../src/manager/docker-labelled';
import { startTestDaemon } from '../helpers/test-daemon';
import { containersOf, docker, IMAGE, removeContainersOf, requireDocker, SOCKET } from './helpers';

const available = await requireDocker();

/** A stopped container labelled as the run container of `server` under `serversDir`. */
async function leftBehind(serversDir: string, server: string): Promise<void> {
  await docker.createContainer({
    Image: IMAGE,
    Cmd: ['true'],
    Labels: { 'org.hearth.servers-dir': serversDir, 'org.hearth.server': server, 'org.hearth.role': 'run' },
  });
}

describe.skipIf(!available)('docker containers left behind', { timeout: 120_000 }, () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-orphans-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const dir of dirs) {
      await removeContainersOf(dir);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('are seen by the label query, for their own servers folder only', async () => {
    const mine = await tempDir();
    const other = await tempDir();
    expect(await hasLabelledContainers(SOCKET, mine)).toBe(false);
    await leftBehind(mine, 'gone');
    expect(await hasLabelledContainers(SOCKET, mine)).toBe(true);
    expect(await hasLabelledContainers(SOCKET, other)).toBe(false);
    expect(await hasLabelledContainers(join(mine, 'no-such.sock'), mine)).toBe(false);
  });

  it('are removed at boot when their server is gone; another folder keeps its own', async () => {
    const serversDir = await tempDir();
    const other = await tempDir();
    await leftBehind(serversDir, 'gone');
    await leftBehind(other, 'gone');
    const d = await startTestDaemon({ serversDir, docker: { socketPath: SOCKET, user: '' } });
    try {
      expect(await containersOf(serversDir)).toEqual([]);
      expect(await containersOf(other)).toHaveLength(1);
    } finally {
      await d.close();
    }
  });
});
