/**
 * The daemon's `tls` section against real daemons (docs/configuration.md § Daemon `tls`), with certificates from
 * the panel's own generator: the deployment's PEMs serve HTTPS with that certificate and nothing in plain HTTP;
 * the operator's files win over the PEMs; `HEARTH_DAEMON_TLS_*` set the keys; and every broken set-up — half a
 * pair, a key of another certificate, a file that cannot be read, text that is no PEM — stops start-up with one
 * line naming the key, before anything listens.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DaemonConfigError,
  loadDaemonConfig,
  parseDaemonConfig,
  startDaemon,
  type RunningDaemon,
} from '@hearth/daemon';
import { generateNodeCertificate } from '../apps/panel/src/nodes-link/node-certificate';
import { baseTestConfig } from '../apps/daemon/test/helpers/test-config';
import { generateTestKeys, type TestKeys } from '../apps/daemon/test/helpers/tokens';

/** The fingerprint of the certificate a TLS listener presents (no verification: we only look). */
function servedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
    socket.once('error', reject);
  });
}

/** What a plain HTTP request gets back before the peer closes. */
function plainAnswer(port: number): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const socket = netConnect({ host: '127.0.0.1', port }, () =>
      socket.write('GET /daemon HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    );
    socket.setTimeout(3_000, () => socket.destroy());
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
}

describe('daemon tls configuration', () => {
  const deployed = generateNodeCertificate({ commonName: 'deployed', hosts: ['127.0.0.1'] });
  const operator = generateNodeCertificate({ commonName: 'operator', hosts: ['127.0.0.1'] });
  let keys: TestKeys;
  let dir: string;
  const running: RunningDaemon[] = [];
  const config = (tls: Record<string, string>) =>
    parseDaemonConfig({ ...baseTestConfig(mkdtempSync(join(dir, 'data-')), keys), tls });
  const start = async (tls: Record<string, string>) => {
    const daemon = await startDaemon(config(tls), pino({ level: 'silent' }));
    running.push(daemon);
    return daemon;
  };

  beforeAll(async () => {
    keys = await generateTestKeys();
    dir = mkdtempSync(join(tmpdir(), 'hearth-tls-config-'));
    writeFileSync(join(dir, 'operator.crt'), operator.certPem);
    writeFileSync(join(dir, 'operator.key'), operator.keyPem, { mode: 0o600 });
  });
  afterAll(async () => {
    for (const daemon of running) await daemon.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves HTTPS with the deployment's certificate and no plain HTTP", async () => {
    const daemon = await start({ certPem: deployed.certPem, keyPem: deployed.keyPem });
    expect(daemon.scheme).toBe('https');
    expect(daemon.tlsFingerprint).toBe(deployed.fingerprint);
    expect(await servedFingerprint(daemon.port)).toBe(deployed.fingerprint);
    expect(await plainAnswer(daemon.port)).not.toMatch(/^HTTP\//);
  });

  it("the operator's files win over the deployment's PEMs", async () => {
    const daemon = await start({
      certPem: deployed.certPem,
      keyPem: deployed.keyPem,
      certFile: join(dir, 'operator.crt'),
      keyFile: join(dir, 'operator.key'),
    });
    expect(await servedFingerprint(daemon.port)).toBe(operator.fingerprint);
  });

  it('without tls keys the daemon speaks plain HTTP (the loopback local node)', async () => {
    const daemon = await start({});
    expect(daemon.scheme).toBe('http');
    expect(daemon.tlsFingerprint).toBeNull();
    expect(await plainAnswer(daemon.port)).toMatch(/^HTTP\/1\.1 200/);
  });

  it('HEARTH_DAEMON_TLS_* set the keys of the file', () => {
    const file = join(dir, 'node.json');
    writeFileSync(file, JSON.stringify(baseTestConfig(dir, keys)));
    const loaded = loadDaemonConfig(file, {
      HEARTH_DAEMON_TLS_CERT_FILE: join(dir, 'operator.crt'),
      HEARTH_DAEMON_TLS_KEY_FILE: join(dir, 'operator.key'),
    });
    expect(loaded.tls).toMatchObject({
      certFile: join(dir, 'operator.crt'),
      keyFile: join(dir, 'operator.key'),
    });
  });

  it('a broken set-up stops start-up with one line naming the key', async () => {
    const refused = async (tls: Record<string, string>) => {
      const err: unknown = await start(tls).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DaemonConfigError);
      return (err as Error).message;
    };
    expect(await refused({ certPem: deployed.certPem })).toMatch(
      /^Invalid daemon configuration: tls\.keyPem/,
    );
    expect(await refused({ keyFile: join(dir, 'operator.key') })).toMatch(
      /tls\.certFile .*is needed with keyFile/,
    );
    expect(await refused({ certPem: 'not a pem', keyPem: deployed.keyPem })).toMatch(/tls\.certPem/);
    expect(await refused({ certPem: deployed.certPem, keyPem: operator.keyPem })).toMatch(
      /tls\.certPem: the certificate and key do not form a pair/,
    );
    expect(await refused({ certFile: join(dir, 'missing.crt'), keyFile: join(dir, 'operator.key') })).toMatch(
      /tls\.certFile: cannot read .*missing\.crt/,
    );
    expect(running.every((d) => d.port > 0)).toBe(true);
    expect(running).toHaveLength(3); // none of the refused ones started
  });
});
