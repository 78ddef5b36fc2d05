/**
 * Real backup destinations on loopback for the backup tests (docs/backups.md § Destinations): OpenSSH's sshd
 * with sftp-server (its own config, host key and port, as bench/files/sshd-reference.ts runs it), an
 * S3-compatible server process (s3rver) and restic's REST protocol (`rclone serve restic`). Each is a child
 * process or server the test stops, and can be stopped and started again on the same port (an unreachable
 * destination that comes back).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, tcpAccepts as accepts } from '../../../../e2e/helpers/net';

async function listening(
  port: number,
  child: ChildProcess,
  what: string,
  stderr: () => string,
): Promise<void> {
  for (let i = 0; !(await accepts(port)); i += 1) {
    if (child.exitCode !== null || i >= 200) throw new Error(`${what} did not start on ${port}: ${stderr()}`);
    await sleep(50);
  }
}

export interface Destination {
  /** The destination body for `PUT /daemon/backups/destination`. */
  body: Record<string, unknown>;
  /** The local folder the destination's server writes the repository's files into (to look at from the test). */
  files: string;
  /** Stops the service (the destination becomes unreachable); `start` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its files. */
  close(): Promise<void>;
}

function child(command: string, args: string[], what: string) {
  const proc = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => proc.once('close', () => resolve()));
  return {
    proc,
    stderr: () => stderr,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill();
      await exited;
    },
    what,
  };
}

/** sshd on loopback, key login as root, its host key pinned by the destination. */
export async function sftpDestination(): Promise<Destination> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-sshd-'));
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 }); // sshd's privilege separation directory
  for (const name of ['host', 'user'])
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, name)]);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'user.pub')));
  const port = await freePort();
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'StrictModes no',
      `PidFile ${join(dir, 'sshd.pid')}`,
      'PermitRootLogin prohibit-password',
      'Subsystem sftp /usr/lib/openssh/sftp-server',
      '',
    ].join('\n'),
  );
  let run: ReturnType<typeof child> | null = null;
  const start = async () => {
    run = child('/usr/sbin/sshd', ['-f', config, '-D', '-e'], 'sshd');
    await listening(port, run.proc, 'sshd', run.stderr);
  };
  await start();
  const hostKey = readFileSync(join(dir, 'host.pub'), 'utf8').trim().split(' ').slice(0, 2).join(' ');
  const stop = async () => void (await run?.stop());
  return {
    body: {
      type: 'sftp',
      host: '127.0.0.1',
      port,
      user: 'root',
      path: join(dir, 'repository'),
      hostKey,
      privateKey: readFileSync(join(dir, 'user'), 'utf8'),
    },
    files: join(dir, 'repository'),
    start,
    stop,
    close: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

interface S3rverInstance {
  run(): Promise<unknown>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

/** A throwaway certificate for 127.0.0.1 (its key and PEM). */
function loopbackCertificate(dir: string): { key: string; cert: string } {
  const key = join(dir, 'tls.key');
  const cert = join(dir, 'tls.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

/**
 * s3rver, an S3-compatible server in this test's process, with a bucket `hearth`, over HTTPS with its own CA:
 * over plain HTTP restic's S3 client signs uploads chunk by chunk (aws-chunked), which s3rver stores undecoded.
 */
export async function s3Destination(): Promise<Destination> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const dir = mkdtempSync(join(tmpdir(), 'hearth-s3-'));
  const tls = loopbackCertificate(dir);
  const port = await freePort();
  let server: S3rverInstance | null = null;
  const start = async () => {
    server = new S3rver({
      address: '127.0.0.1',
      port,
      directory: join(dir, 'data'),
      silent: true,
      key: tls.key,
      cert: tls.cert,
      configureBuckets: [{ name: 'hearth' }],
      vhostBuckets: false,
    });
    await server.run();
  };
  await start();
  const stop = async () => {
    await server?.close();
    server = null;
  };
  return {
    body: {
      type: 's3',
      endpoint: `https://127.0.0.1:${port}`,
      bucket: 'hearth',
      prefix: 'node-1',
      region: 'us-east-1',
      // s3rver knows one account: S3RVER / S3RVER (it checks the signature).
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      caCert: tls.cert,
    },
    files: join(dir, 'data'),
    start,
    stop,
    close: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** restic's REST protocol served by Debian's rclone, with HTTP basic credentials. */
export async function restDestination(): Promise<Destination> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-rest-'));
  const port = await freePort();
  let run: ReturnType<typeof child> | null = null;
  const start = async () => {
    run = child(
      '/usr/bin/rclone',
      ['serve', 'restic', '--addr', `127.0.0.1:${port}`, '--user', 'hearth', '--pass', 'rest-secret', dir],
      'rclone',
    );
    await listening(port, run.proc, 'rclone serve restic', run.stderr);
  };
  await start();
  const stop = async () => void (await run?.stop());
  return {
    body: {
      type: 'rest',
      url: `http://127.0.0.1:${port}/node-1/`,
      username: 'hearth',
      password: 'rest-secret',
    },
    files: dir,
    start,
    stop,
    close: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
