/**
 * SFTP to a node that dials the panel (docs/operations.md § Remote node, outbound mode): the panel listens on the
 * node's SFTP port and relays each connection through the node's link to the daemon's own SFTP listener on
 * loopback. A real daemon in outbound mode (its deployment config, from the API), the real panel link, and
 * OpenSSH's `sftp` logging in as a user through the relay port: put and get, the file checked on the node's
 * disk. With the node disconnected the relay closes a connection at once, before any SSH banner.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDaemonConfig, startDaemon, type RunningDaemon } from '@hearth/daemon';
import { call, createUser, type TestApp } from '../apps/panel/test/helpers/app';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { waitFor } from '../apps/daemon/test/helpers/poll';
import { listeningPanel } from './helpers/node-fixture';
import { expectSftpOk, runSftp } from './helpers/sftp-client';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What the relay sends before closing a fresh connection (an SSH server would send its banner first). */
function firstBytes(port: number): Promise<{ received: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET') return; // a reset is a close too
      reject(err);
    });
    socket.on('close', () => resolve({ received, closed: true }));
    // A connection the relay kept open would be piped somewhere: this guard ends the test, never passes it.
    setTimeout(() => {
      socket.destroy();
      resolve({ received, closed: false });
    }, 60_000).unref();
  });
}

describe('SFTP relayed by the panel to an outbound node', { timeout: 300_000 }, () => {
  let t: TestApp;
  let daemon: RunningDaemon | undefined;
  let admin: { token: string };
  let nodeId = '';
  let serverId = '';
  let serverRoot = '';
  let relayPort = 0;
  const dirs: string[] = [];

  const linkState = async () =>
    (await call(t, 'GET', `/api/nodes/${nodeId}`, { token: admin.token })).json<{
      linkState: { connected: boolean; connects: number; sftpRelay: { listening: boolean } } | null;
    }>().linkState;

  beforeAll(async () => {
    const panel = await listeningPanel('sqlite');
    t = panel.t;
    // The panel's relays start once it serves, as startPanel does it.
    await t.services.sftpRelay.start();
    admin = await createUser(t, { admin: true });
    relayPort = await freePort();
    const body = {
      name: 'dials-in',
      publicHost: '127.0.0.1',
      publicPort: 8443,
      privateHost: '127.0.0.1',
      privatePort: 8443,
      sftpPort: relayPort,
      link: 'outbound',
    };
    const created = await call(t, 'POST', '/api/nodes', { token: admin.token, body });
    expect(created.statusCode, created.body).toBe(200);
    const node = created.json<{ id: string; deployment: { config: Record<string, unknown> } }>();
    nodeId = node.id;
    const given = node.deployment.config as { sftp: Record<string, unknown> };
    expect(given).toMatchObject({ link: 'outbound', host: '127.0.0.1', sftp: { host: '127.0.0.1' } });
    const dataDir = mkdtempSync(join(tmpdir(), 'hearth-relay-node-'));
    dirs.push(dataDir);
    // The file as deployed; only what one machine cannot share with the panel moves: the data folder, and the
    // daemon's own loopback ports (on a real node they are on another machine than the panel's relay port).
    const config = parseDaemonConfig({
      ...given,
      port: 0,
      dataDir,
      panelUrl: panel.url,
      logLevel: 'silent',
      sftp: { ...given.sftp, port: 0, recheckMs: 500 },
    });
    daemon = await startDaemon(config, pino({ level: 'silent' }));
    await waitFor(async () => ((await linkState())?.connected ? true : null), 'the link up', {
      timeoutMs: 120_000,
      intervalMs: 250,
    });
    const server = { ...fakeGameDefinition(), name: 'relayed', node: nodeId, users: [] };
    const res = await call(t, 'POST', '/api/servers', { token: admin.token, body: server });
    expect(res.statusCode, res.body).toBe(200);
    serverId = res.json<{ id: string }>().id;
    serverRoot = join(config.serversDir ?? join(dataDir, 'servers'), serverId);
  }, 300_000);

  afterAll(async () => {
    await daemon?.close();
    await t?.services.sftpRelay.stop();
    await t?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('OpenSSH logs in through the relay port; put and get reach the node and come back', async () => {
    expect(await linkState()).toMatchObject({ connected: true, sftpRelay: { listening: true } });
    const user = await createUser(t);
    const grant = await call(t, 'PUT', `/api/servers/${serverId}/user/${encodeURIComponent(user.email)}`, {
      token: admin.token,
      body: { sftpServer: true, viewServerFiles: true, putServerFiles: true },
    });
    expect(grant.statusCode, grant.body).toBe(204);
    const local = mkdtempSync(join(tmpdir(), 'hearth-relay-local-'));
    dirs.push(local);
    writeFileSync(join(local, 'upload.txt'), 'through the panel\n');
    const r = await runSftp(
      relayPort,
      `${user.email}#${serverId}`,
      user.password,
      ['put upload.txt', 'ls -l', 'get upload.txt back.txt'],
      { cwd: local, timeoutMs: 120_000 },
    );
    expectSftpOk(r, 'put/ls/get through the relay');
    expect(r.stdout).toContain('upload.txt');
    expect(await readFile(join(serverRoot, 'upload.txt'), 'utf8')).toBe('through the panel\n');
    expect(readFileSync(join(local, 'back.txt'), 'utf8')).toBe('through the panel\n');
  });

  it('with the node disconnected, the relay closes a connection at once, before any SSH banner', async () => {
    // Connected, the same port answers with the daemon's SSH banner (what the closed case must lack).
    const open = connect({ host: '127.0.0.1', port: relayPort });
    const banner = await new Promise<string>((resolve, reject) => {
      open.setEncoding('utf8');
      open.once('data', (chunk: string) => resolve(chunk));
      open.once('error', reject);
    });
    open.destroy();
    expect(banner).toMatch(/^SSH-2\.0-/);

    await daemon?.close();
    daemon = undefined;
    await waitFor(async () => ((await linkState())?.connected === false ? true : null), 'the link down', {
      timeoutMs: 120_000,
      intervalMs: 250,
    });
    expect(await linkState()).toMatchObject({ connected: false, sftpRelay: { listening: true } });
    expect(await firstBytes(relayPort)).toEqual({ received: '', closed: true });
  });
});
