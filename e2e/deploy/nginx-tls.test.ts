/**
 * Hearth behind Debian's nginx with TLS, configured exactly as docs/operations.md § Reverse proxy says (a
 * self-signed certificate, nginx as a child process with its own prefix): `hearth start` (panel + local node)
 * with `web.trustProxy`. Login over HTTPS sets a Secure cookie (the panel's own plain port does not); the live
 * console works over wss:// with the browser's Origin (a foreign one is refused); a 2 GiB upload streams through
 * without nginx buffering it to disk and arrives intact; the login limiter counts the client address nginx saw
 * (a client's own X-Forwarded-For is replaced, not trusted); the SFTP address shown stays the node's own.
 */
import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { fakeGameDefinition } from '../../apps/daemon/test/helpers/test-daemon';
import { waitFor } from '../../apps/daemon/test/helpers/poll';
import { freePort } from '../helpers/net';
import { expectSftpOk, runSftp } from '../helpers/sftp-client';
import { startHearth, type HearthStart } from './helpers/hearth-start';
import { httpsCall, streamedUpload, type Call, type ClientOptions } from './helpers/https-client';
import { nginxInstalled, selfSignedCertificate, startNginx, type RunningNginx } from './helpers/nginx';

function nginxAvailable(): boolean {
  if (nginxInstalled()) return true;
  if (process.env.CI === 'true') throw new Error('CI needs Debian nginx (apt-get install nginx)');
  console.warn('skipping the nginx suite: /usr/sbin/nginx is missing (apt-get install nginx)');
  return false;
}

const admin = { username: 'admin', email: 'admin@example.com', password: 'admin-password-1' };
const credentials = { email: admin.email, password: admin.password };
const GIB = 1024 ** 3;

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

describe.runIf(nginxAvailable())('Hearth behind nginx with TLS (docs/operations.md)', () => {
  let dir: string;
  let hearth: HearthStart;
  let nginx: RunningNginx;
  let client: ClientOptions;
  let httpPort: number;
  let session: string;
  let serverId: string;
  const https = (call: Call, from?: string) => httpsCall({ ...client, localAddress: from }, call);
  const bearer = () => ({ authorization: `Bearer ${session}` });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hearth-nginx-'));
    hearth = await startHearth(dir, { trustProxy: true });
    const { cert, key } = selfSignedCertificate(dir);
    const httpsPort = await freePort();
    httpPort = await freePort();
    nginx = await startNginx(dir, { httpsPort, httpPort, panelPort: hearth.port, cert, key });
    client = { port: httpsPort, ca: readFileSync(cert, 'utf8') };

    const token = new URL(hearth.setupUrl).searchParams.get('token');
    const setup = await https({ method: 'POST', path: '/auth/setup', body: { ...admin, token } });
    expect(setup.status, setup.text).toBe(200);
    session = (JSON.parse(setup.text) as { session: string }).session;
    const body = { ...fakeGameDefinition(), name: 'behind-nginx', node: 'local', users: [] };
    const created = await https({ method: 'POST', path: '/api/servers', headers: bearer(), body });
    expect(created.status, created.text).toBe(200);
    serverId = (JSON.parse(created.text) as { id: string }).id;
    for (const action of ['install', 'start']) {
      const path = `/proxy/daemon/server/${serverId}/${action}?wait=true`;
      const done = await https({ method: 'POST', path, headers: bearer() });
      expect(done.status, done.text).toBe(204);
    }
  }, 120_000);
  afterAll(async () => {
    await nginx?.stop();
    await hearth?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('logs in over HTTPS with a Secure session cookie and HSTS; port 80 redirects to https', async () => {
    const login = await https({ method: 'POST', path: '/auth/login', body: credentials });
    expect(login.status, login.text).toBe(200);
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/^hearth_session=[^;]+;/);
    expect(cookie).toMatch(/; Secure/);
    expect(login.headers['strict-transport-security']).toBe('max-age=63072000');
    // The panel's own port, plain HTTP: the same login gives no Secure cookie (it follows X-Forwarded-Proto).
    const direct = await fetch(`http://127.0.0.1:${hearth.port}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    expect(direct.status).toBe(200);
    expect(direct.headers.get('set-cookie')).not.toMatch(/Secure/);
    const plain = await fetch(`http://127.0.0.1:${httpPort}/servers`, { redirect: 'manual' });
    expect(plain.status).toBe(301);
    expect(plain.headers.get('location')).toBe('https://127.0.0.1/servers');
  });

  it('carries the live console over wss:// with the page’s Origin; a foreign Origin is refused', async () => {
    const url = `wss://localhost:${client.port}/proxy/daemon/socket/${serverId}`;
    const open = (origin: string) =>
      new Promise<WebSocket>((done, fail) => {
        const ws = new WebSocket(url, {
          ca: client.ca,
          headers: { cookie: `hearth_session=${session}`, origin },
        });
        ws.once('open', () => done(ws));
        ws.once('unexpected-response', (_req, res) => fail(new Error(`HTTP ${res.statusCode}`)));
        ws.once('error', fail);
      });
    await expect(open('https://evil.example')).rejects.toThrow('HTTP 403');
    const ws = await open(`https://localhost:${client.port}`);
    let logs = '';
    ws.on('message', (raw: Buffer) => {
      const msg = JSON.parse(raw.toString()) as { type: string; data: { logs?: string[] } };
      if (msg.type === 'console') logs += (msg.data.logs ?? []).join('');
    });
    ws.send(JSON.stringify({ type: 'console', command: 'hello-through-nginx' }));
    await waitFor(() => logs.includes('hello-through-nginx'), 'the echo over wss');
    ws.close();
  });

  /** Streams `size` bytes through `proxy` on `port`; the answer, the most it held on disk, the file's check. */
  async function upload(proxy: RunningNginx, port: number, size: number, name: string) {
    const body = streamedUpload(size, name);
    let buffered = 0;
    const sampler = setInterval(() => (buffered = Math.max(buffered, proxy.bufferedBytes())), 50);
    try {
      const answer = await httpsCall(
        { ...client, port },
        {
          method: 'PUT',
          path: `/proxy/daemon/server/${serverId}/file/${name}`,
          headers: { ...bearer(), 'content-type': body.contentType, 'content-length': body.length },
          body: body.body,
        },
      );
      expect(answer.status, answer.text).toBe(204);
    } finally {
      clearInterval(sampler);
    }
    const file = join(hearth.dataDir, 'servers', serverId, name);
    expect(statSync(file).size).toBe(size);
    expect(await sha256OfFile(file)).toBe(body.sha256());
    rmSync(file);
    return buffered;
  }

  it(
    'streams a 2 GiB upload through nginx without buffering it to disk; it arrives intact',
    { timeout: 600_000 },
    async () => {
      expect(await upload(nginx, client.port, 2 * GIB, 'big.bin')).toBe(0);
    },
  );

  it('control: the same site with request buffering on does hold the body on disk (the probe sees it)', async () => {
    const controlDir = join(dir, 'buffering');
    mkdirSync(controlDir);
    // The suite's certificate: the client trusts that one only.
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    const port = await freePort();
    const alter = (site: string) =>
      site.replace('proxy_request_buffering off;', 'proxy_request_buffering on;');
    const buffering = await startNginx(controlDir, {
      ...{ httpsPort: port, httpPort: await freePort(), panelPort: hearth.port, cert, key },
      alter,
    });
    try {
      expect(await upload(buffering, port, 256 * 1024 ** 2, 'buffered.bin')).toBeGreaterThan(0);
    } finally {
      await buffering.stop();
    }
  }, 120_000);

  it(
    'keeps the Node page’s SFTP address the node’s own, and SFTP works there',
    { timeout: 60_000 },
    async () => {
      const server = await https({ method: 'GET', path: `/api/servers/${serverId}`, headers: bearer() });
      expect(server.status, server.text).toBe(200);
      console.log(server.text);
      const { node } = (
        JSON.parse(server.text) as { server: { node: { sftpPort: number; publicHost: string } } }
      ).server;
      // The local node's public host is this machine's name (from panel.masterUrl, here unset: localhost), never
      // the Host or X-Forwarded-Host nginx passed; the port is the node's SFTP port, not the proxy's.
      expect(node.publicHost).toBe('localhost');
      expect(node.sftpPort).toBe(hearth.sftpPort);
      expect(node.sftpPort).not.toBe(client.port);
      const nodes = await https({ method: 'GET', path: '/api/nodes', headers: bearer() });
      const local = (JSON.parse(nodes.text) as { id: string; sftpPort: number }[]).find(
        (n) => n.id === 'local',
      );
      expect(local?.sftpPort).toBe(hearth.sftpPort);
      const r = await runSftp(node.sftpPort, `${admin.email}|${serverId}`, admin.password, ['ls'], {
        via: 'config',
      });
      expectSftpOk(r, 'ls');
      expect(r.stdout).toContain('server.properties');
    },
  );

  it('limits logins by the client address nginx saw; a client’s own X-Forwarded-For changes nothing', async () => {
    const fail = (from: string, n: number, forged = '198.51.100.7') =>
      https(
        {
          method: 'POST',
          path: '/auth/login',
          headers: { 'x-forwarded-for': forged },
          body: { email: `nobody-${from}-${n}@example.com`, password: 'wrong-password-1' },
        },
        from,
      );
    // 20 attempts a minute per address (docs/security.md); distinct e-mails keep the per-account limit out of it.
    for (let n = 0; n < 20; n += 1) {
      const refused = await fail('127.0.0.2', n);
      expect(refused.status, refused.text).toBe(400);
      expect(JSON.parse(refused.text)).toMatchObject({ error: { code: 'ErrInvalidCredentials' } });
    }
    const limited = await fail('127.0.0.2', 20);
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.text)).toMatchObject({ error: { code: 'ErrRateLimited' } });
    // Another client is not limited, even when it forges the limited one's address.
    expect((await fail('127.0.0.3', 0, '127.0.0.2')).status).toBe(400);
    // And the limited client cannot escape by claiming to be someone else.
    expect((await fail('127.0.0.2', 21, '127.0.0.9')).status).toBe(429);
  });
});
