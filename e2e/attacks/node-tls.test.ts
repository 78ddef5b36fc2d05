/**
 * The panel ↔ node link across a network (docs/security.md § Node link): a REMOTE node on another address — a
 * network namespace joined by a veth pair — started with the real `hearth daemon --config node.json` from the
 * deployment config exactly as the panel's API shows it. The panel reaches it over HTTPS with the pinned
 * certificate and drives a server, console included over the proxied WSS; the daemon's listener does not speak
 * plain HTTP; an impostor at the node's address with another certificate is refused before any signed token
 * reaches it; a rotated deployment moves the pin, so the old daemon is refused until it runs the new file.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ssh2, { type SFTPWrapper } from 'ssh2';
import WebSocket from 'ws';
import { call, createUser, type TestApp } from '../../apps/panel/test/helpers/app';
import { buildTestApp } from '../../apps/panel/test/helpers/app';
import { generateNodeCertificate } from '../../apps/panel/src/nodes-link/node-certificate';
import { waitFor } from '../../apps/daemon/test/helpers/poll';
import { createFakeServer } from '../helpers/node-fixture';
import { createNetns, startDeployedNode, type DeployedNode, type Netns } from '../helpers/deployed-node';

const DAEMON_PORT = 25656;
const SFTP_PORT = 25657;

const netns = createNetns('tls');
const skip = 'skip' in netns ? netns.skip : null;
if (skip) console.log(`e2e/attacks/node-tls: skipped — ${skip}`);

interface NodeAnswer {
  id: string;
  tlsMode: string;
  tlsFingerprint: string;
  deployment: { config: Record<string, unknown>; clientSecret: string; tlsFingerprint: string };
}

/** Bytes a TCP client gets back for `payload` until the peer closes (or 3 s of silence). */
function rawExchange(host: string, port: number, payload: string): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host, port }, () => socket.write(payload));
    const done = () => resolve(Buffer.concat(chunks));
    socket.setTimeout(3_000, () => (socket.destroy(), done()));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', done);
    socket.on('error', () => undefined);
  });
}

/** An SFTP session on the node (its SFTP asks the panel about the login with the node credential). */
function sftpSession(host: string, username: string, password: string): Promise<SFTPWrapper> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client
      .on('ready', () => client.sftp((err, sftp) => (err ? reject(err) : resolve(sftp))))
      .on('error', reject)
      .connect({ host, port: SFTP_PORT, username, password, readyTimeout: 20_000 });
  });
}

/** An HTTPS server inside the namespace at the node's address, logging the Authorization of each request. */
function startImpostor(ns: Netns, port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-impostor-'));
  const cert = generateNodeCertificate({ commonName: 'impostor', hosts: [ns.nodeAddress] });
  const script = join(dir, 'impostor.mjs');
  writeFileSync(
    script,
    `import { createServer } from 'node:https';
const server = createServer(${JSON.stringify({ cert: cert.certPem, key: cert.keyPem })}, (req, res) => {
  console.log('REQ ' + (req.headers.authorization ?? '-'));
  res.end('{}');
});
server.on('upgrade', (req, socket) => { console.log('REQ ' + (req.headers.authorization ?? '-')); socket.destroy(); });
server.listen(${port}, ${JSON.stringify(ns.nodeAddress)}, () => console.log('READY'));`,
  );
  const child = spawn('ip', ['netns', 'exec', ns.name, process.execPath, script], { stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  child.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return waitFor(() => output.includes('READY'), 'the impostor listening').then(() => ({
    child,
    output: () => output,
  }));
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe.skipIf(skip !== null)('a remote node in a network namespace, over the pinned link', () => {
  const ns = netns as Netns;
  let t: TestApp;
  let panelUrl: string;
  let admin: string;
  let adminLogin: { email: string; password: string };
  let node: NodeAnswer;
  let daemon: DeployedNode | undefined;
  let serverId: string;

  const features = () => call(t, 'GET', `/api/nodes/${node.id}/features`, { token: admin });
  const errorOf = (res: { json: () => unknown }) => (res.json() as { error?: object }).error;

  beforeAll(async () => {
    try {
      t = await buildTestApp('sqlite');
      // The panel listens on the host end of the veth pair: the node reaches it there (SFTP logins, tasks).
      await t.app.listen({ host: ns.hostAddress, port: 0 });
      const address = t.app.server.address();
      panelUrl = `http://${ns.hostAddress}:${typeof address === 'object' && address ? address.port : 0}`;
      await t.services.settings.write({ 'panel.settings.masterUrl': panelUrl });
      const adminUser = await createUser(t, { admin: true });
      admin = adminUser.token;
      adminLogin = adminUser;
      const body = {
        name: 'remote',
        publicHost: ns.nodeAddress,
        publicPort: DAEMON_PORT,
        privateHost: ns.nodeAddress,
        privatePort: DAEMON_PORT,
        sftpPort: SFTP_PORT,
      };
      node = (await call(t, 'POST', '/api/nodes', { token: admin, body })).json<NodeAnswer>();
      // The operator's path: the Node page's deployment (GET, shown again in full), copied to node.json as is.
      const shown = await call(t, 'GET', `/api/nodes/${node.id}/deployment`, { token: admin });
      const { config } = shown.json<{ config: Record<string, unknown> }>();
      daemon = await startDeployedNode(config, { netns: ns });
    } catch (err) {
      ns.close();
      throw err;
    }
  }, 120_000);

  afterAll(async () => {
    try {
      await daemon?.stop();
      await t?.close();
    } finally {
      ns.close();
    }
  }, 60_000);

  it('the daemon runs from the shown config with HTTPS on the pinned certificate and SFTP on', async () => {
    expect(node.tlsMode).toBe('pinned');
    expect(daemon?.scheme).toBe('https');
    expect(daemon?.fingerprint).toBe(node.tlsFingerprint);
    expect(daemon?.sftpPort).toBe(SFTP_PORT);
    // SFTP answers on the node's address with an SSH banner.
    const banner = await rawExchange(ns.nodeAddress, SFTP_PORT, '');
    expect(banner.toString('latin1')).toMatch(/^SSH-2\.0-/);
    await waitFor(async () => {
      const list = (await call(t, 'GET', '/api/nodes', { token: admin })).json<
        Array<{ id: string; status: string }>
      >();
      return list.find((n) => n.id === node.id)?.status === 'online';
    }, 'the remote node online');
    expect((await features()).statusCode).toBe(200);
  });

  it('the panel drives a server on the remote node, console over the proxied WSS', async () => {
    serverId = await createFakeServer(t, admin, node.id, 'remote game');
    const base = `/proxy/daemon/server/${serverId}`;
    expect((await call(t, 'POST', `${base}/install?wait=true`, { token: admin })).statusCode).toBe(204);
    expect((await call(t, 'POST', `${base}/start?wait=true`, { token: admin })).statusCode).toBe(204);
    const ws = new WebSocket(`${panelUrl.replace('http', 'ws')}/proxy/daemon/socket/${serverId}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    let logs = '';
    ws.on('message', (raw: Buffer) => {
      const msg = JSON.parse(raw.toString()) as { type: string; data: { logs?: string[] } };
      if (msg.type === 'console') logs += (msg.data.logs ?? []).join('');
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify({ type: 'console', command: 'hello-over-wss' }));
    await waitFor(() => logs.includes('hello-over-wss'), 'the echo through the panel and the node');
    ws.close();
    expect((await call(t, 'GET', `${base}/status`, { token: admin })).json()).toMatchObject({
      running: true,
    });
  });

  it('SFTP on the remote node logs in through the panel with the node secret from the shown config', async () => {
    const username = `${adminLogin.email}#${serverId}`;
    const sftp = await sftpSession(ns.nodeAddress, username, adminLogin.password);
    const names = await new Promise<string[]>((resolve, reject) =>
      sftp.readdir('.', (err, list) => (err ? reject(err) : resolve(list.map((e) => e.filename)))),
    );
    expect(names).toContain('server.properties');
    sftp.end();
    await expect(sftpSession(ns.nodeAddress, username, 'not-the-password')).rejects.toThrow(
      /authentication/i,
    );
  });

  it("the daemon's listener does not speak plain HTTP, and a plain link cannot reach it", async () => {
    const answer = await rawExchange(
      ns.nodeAddress,
      DAEMON_PORT,
      `GET /daemon HTTP/1.1\r\nHost: ${ns.nodeAddress}\r\nAuthorization: Bearer nothing\r\n\r\n`,
    );
    expect(answer.toString('latin1')).not.toMatch(/^HTTP\//);
    const viaHttp = await new Promise<string>((resolve) => {
      const req = httpRequest({ host: ns.nodeAddress, port: DAEMON_PORT, path: '/daemon' }, (res) =>
        resolve(`answered ${res.statusCode}`),
      );
      req.once('error', (err: Error & { code?: string }) => resolve(err.code ?? err.message));
      req.end();
    });
    expect(viaHttp).not.toMatch(/^answered/);
    // An administrator marking the node plain gets no link to an HTTPS daemon: offline, never a downgrade.
    const url = `/api/nodes/${node.id}`;
    expect((await call(t, 'PUT', url, { token: admin, body: { tlsMode: 'plain' } })).statusCode).toBe(204);
    const plain = await features();
    expect(plain.statusCode).toBe(502);
    expect(errorOf(plain)).toMatchObject({ code: 'ErrNodeOffline' });
    expect((await call(t, 'PUT', url, { token: admin, body: { tlsMode: 'pinned' } })).statusCode).toBe(204);
    expect((await features()).statusCode).toBe(200);
  });

  it('an impostor at the node address with another certificate gets no token', async () => {
    await daemon?.stop();
    daemon = undefined;
    const impostor = await startImpostor(ns, DAEMON_PORT);
    try {
      const refused = await features();
      expect(refused.statusCode).toBe(502);
      expect(errorOf(refused)).toMatchObject({
        code: 'ErrNodeCertificate',
        metadata: { node: 'remote', reason: 'pin-mismatch' },
      });
      const status = await call(t, 'GET', `/proxy/daemon/server/${serverId}/status`, { token: admin });
      expect(status.statusCode).toBe(502);
      const ws = new WebSocket(`${panelUrl.replace('http', 'ws')}/proxy/daemon/socket/${serverId}`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      // The browser's socket opens, then closes with the catalogued reason: the node's socket was refused.
      const closed = await new Promise<string>((resolve) => {
        ws.once('close', (_code, reason) => resolve(reason.toString()));
        ws.once('error', (err) => resolve(`error ${err.message}`));
      });
      expect(closed).toBe('ErrNodeCertificate');
      // The node list does not take the impostor for the node.
      await waitFor(async () => {
        const list = (await call(t, 'GET', '/api/nodes', { token: admin })).json<
          Array<{ id: string; status: string }>
        >();
        return list.find((n) => n.id === node.id)?.status === 'offline';
      }, 'the node shown offline while an impostor answers');
      expect(impostor.output()).not.toContain('REQ');
    } finally {
      await stopChild(impostor.child);
    }
  });

  it('a rotation moves the pin: the old daemon is refused until it runs the new file', async () => {
    const first = await call(t, 'GET', `/api/nodes/${node.id}/deployment`, { token: admin });
    daemon = await startDeployedNode(first.json<{ config: Record<string, unknown> }>().config, { netns: ns });
    expect((await features()).statusCode).toBe(200);
    const rotated = await call(t, 'POST', `/api/nodes/${node.id}/deployment/rotate`, { token: admin });
    const next = rotated.json<{ config: Record<string, unknown>; tlsFingerprint: string }>();
    expect(next.tlsFingerprint).not.toBe(node.tlsFingerprint);
    const stale = await features();
    expect(errorOf(stale)).toMatchObject({
      code: 'ErrNodeCertificate',
      metadata: { reason: 'pin-mismatch' },
    });
    await daemon.stop();
    daemon = await startDeployedNode(next.config, { netns: ns });
    expect(daemon.fingerprint).toBe(next.tlsFingerprint);
    expect((await features()).statusCode).toBe(200);
  });
});

// The namespace is gone after the suite, even when it failed.
afterAll(() => {
  if (skip) return;
  const left = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  expect(left).not.toContain((netns as Netns).name);
});
