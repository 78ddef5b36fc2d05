/**
 * The node link's certificate checks against real local HTTPS/HTTP servers (docs/security.md § Node link): a
 * pinned node is reached only when the daemon presents exactly the pinned certificate; another self-signed
 * certificate, or a daemon answering plain HTTP, is refused with ErrNodeCertificate before the request — and
 * its signed token — is sent. Mode `ca` trusts Node's CA store (NODE_EXTRA_CA_CERTS included) and checks the
 * host name; it runs in a child process because the CA store is read at process start.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { AppError } from '@hearth/contract';
import { callDaemon, readBody, type NodeAddress } from '../../src/nodes-link/daemon-client';
import { generateNodeCertificate, type NodeCertificate } from '../../src/nodes-link/node-certificate';
import { tlsOptionsOf, type NodeTls } from '../../src/nodes-link/node-tls';

const run = promisify(execFile);

interface Listening<S> {
  server: S;
  port: number;
  /** Authorization headers of the requests that reached the handler. */
  seen: string[];
}

async function listen<S extends HttpServer | HttpsServer>(server: S, seen: string[]): Promise<Listening<S>> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, seen, port: (server.address() as AddressInfo).port };
}

function httpsDaemon(cert: NodeCertificate): Promise<Listening<HttpsServer>> {
  const seen: string[] = [];
  const server = createHttpsServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    seen.push(req.headers.authorization ?? '');
    res.end('ok');
  });
  return listen(server, seen);
}

function httpDaemon(): Promise<Listening<HttpServer>> {
  const seen: string[] = [];
  return listen(
    createHttpServer((req, res) => {
      seen.push(req.headers.authorization ?? '');
      res.end('ok');
    }),
    seen,
  );
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const err: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

const close = (s?: { server: HttpServer | HttpsServer }) =>
  s && new Promise((resolve) => (s.server.closeAllConnections(), s.server.close(resolve)));

describe('node link TLS', () => {
  const pinnedCert = generateNodeCertificate({ commonName: 'pinned', hosts: ['127.0.0.1'] });
  const otherCert = generateNodeCertificate({ commonName: 'impostor', hosts: ['127.0.0.1'] });
  const pinned: NodeTls = {
    mode: 'pinned',
    certPem: pinnedCert.certPem,
    fingerprint: pinnedCert.fingerprint,
  };
  let right: Listening<HttpsServer>;
  let wrong: Listening<HttpsServer>;
  let plain: Listening<HttpServer>;
  const node = (port: number, tls: NodeTls, host = '127.0.0.1'): NodeAddress => ({
    id: 'n1',
    name: 'remote',
    host,
    port,
    tls,
  });

  beforeAll(async () => {
    right = await httpsDaemon(pinnedCert);
    wrong = await httpsDaemon(otherCert);
    plain = await httpDaemon();
  });
  afterAll(async () => {
    await close(right);
    await close(wrong);
    await close(plain);
  });

  it('a pinned node presenting its certificate is reached over HTTPS', async () => {
    const res = await callDaemon(node(right.port, pinned), { method: 'GET', path: '/', token: 'tok-right' });
    expect(await readBody(res)).toBe('ok');
    expect(right.seen).toEqual(['Bearer tok-right']);
  });

  it('another self-signed certificate is refused before the token is sent', async () => {
    const err = await failure(
      callDaemon(node(wrong.port, pinned), { method: 'GET', path: '/', token: 'tok-wrong' }),
    );
    expect(err.code).toBe('ErrNodeCertificate');
    expect(err.status).toBe(502);
    expect(err.metadata).toEqual({ node: 'remote', reason: 'pin-mismatch' });
    expect(wrong.seen).toEqual([]);
  });

  it('a certificate for the same names but another key fails the pin even when it is a trust anchor', async () => {
    // The impostor's certificate is made a trust anchor too: only the fingerprint check is left to refuse it.
    const both: NodeTls = { ...pinned, certPem: pinnedCert.certPem + otherCert.certPem };
    const err = await failure(
      callDaemon(node(wrong.port, both), { method: 'GET', path: '/', token: 'tok-anchor' }),
    );
    expect(err.metadata).toEqual({ node: 'remote', reason: 'pin-mismatch' });
    expect((err.cause as { code?: string }).code).toBe('ERR_HEARTH_NODE_PIN_MISMATCH');
    expect(wrong.seen).toEqual([]);
  });

  it('a daemon answering plain HTTP is refused when the node is pinned', async () => {
    const err = await failure(
      callDaemon(node(plain.port, pinned), { method: 'GET', path: '/', token: 'tok-plain' }),
    );
    expect(err.code).toBe('ErrNodeCertificate');
    expect(err.metadata).toEqual({ node: 'remote', reason: 'not-tls' });
    expect(plain.seen).toEqual([]);
  });

  it('mode plain speaks HTTP (and cannot talk to a TLS daemon)', async () => {
    const res = await callDaemon(node(plain.port, { mode: 'plain' }), {
      method: 'GET',
      path: '/',
      token: 'tok-http',
    });
    expect(await readBody(res)).toBe('ok');
    const err = await failure(
      callDaemon(node(right.port, { mode: 'plain' }), { method: 'GET', path: '/', token: 'x' }),
    );
    expect(err.code).toBe('ErrNodeOffline');
  });

  it('mode ca refuses a self-signed certificate that no CA vouches for', async () => {
    const err = await failure(
      callDaemon(node(right.port, { mode: 'ca' }), { method: 'GET', path: '/', token: 'tok-ca' }),
    );
    expect(err.code).toBe('ErrNodeCertificate');
    expect(err.metadata).toEqual({ node: 'remote', reason: 'untrusted' });
    expect(right.seen).not.toContain('Bearer tok-ca');
  });

  it('mode ca trusts the CA store and checks the host name', { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-ca-'));
    try {
      const caFile = join(dir, 'ca.pem');
      writeFileSync(caFile, pinnedCert.certPem);
      const script = join(dir, 'call.mts');
      const client = join(import.meta.dirname, '../../src/nodes-link/daemon-client.ts');
      writeFileSync(
        script,
        `import { callDaemon, readBody } from ${JSON.stringify(client)};
const [host, port] = process.argv.slice(2);
try {
  const res = await callDaemon({ id: 'n', name: 'ca-node', host, port: Number(port), tls: { mode: 'ca' } },
    { method: 'GET', path: '/', token: 'tok-ca-' + host });
  console.log('OK ' + (await readBody(res)));
} catch (err) {
  console.log('ERR ' + err.code + ' ' + JSON.stringify(err.metadata));
}`,
      );
      const call = async (host: string) => {
        const env = { ...process.env, NODE_EXTRA_CA_CERTS: caFile };
        const { stdout } = await run(
          process.execPath,
          ['--import', 'tsx', script, host, String(right.port)],
          {
            env,
            cwd: join(import.meta.dirname, '../..'),
          },
        );
        return stdout.trim();
      };
      expect(await call('127.0.0.1')).toBe('OK ok');
      // The certificate names 127.0.0.1 only: reached as `localhost`, the host name check refuses it.
      expect(await call('localhost')).toBe(
        'ERR ErrNodeCertificate {"node":"ca-node","reason":"host-mismatch"}',
      );
      expect(right.seen).toContain('Bearer tok-ca-127.0.0.1');
      expect(right.seen).not.toContain('Bearer tok-ca-localhost');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a proxied socket to a pinned node refuses another certificate', async () => {
    const server = createHttpsServer({ cert: otherCert.certPem, key: otherCert.keyPem });
    const wss = new WebSocketServer({ server });
    let upgraded = 0;
    wss.on('connection', () => upgraded++);
    const { port } = await listen(server, []);
    try {
      const open = (tls: NodeTls) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(`wss://127.0.0.1:${port}/`, { ...tlsOptionsOf(tls) });
          ws.once('open', () => (ws.close(), resolve('open')));
          ws.once('error', (err: Error & { code?: string }) => resolve(err.code ?? err.message));
        });
      expect(await open(pinned)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(upgraded).toBe(0);
      const impostorPinned: NodeTls = {
        mode: 'pinned',
        certPem: otherCert.certPem,
        fingerprint: otherCert.fingerprint,
      };
      expect(await open(impostorPinned)).toBe('open');
      expect(upgraded).toBe(1);
    } finally {
      wss.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
