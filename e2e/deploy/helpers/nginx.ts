/**
 * Debian's nginx as a child process of the test, with its own prefix, pid, logs and temp folders in a temp dir
 * (never the system service), serving the site block of docs/operations.md § Reverse proxy with the name, ports
 * and certificate paths substituted — so the documented configuration is the tested one.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { waitFor } from '../../../apps/daemon/test/helpers/poll';
import { tcpAccepts } from '../../helpers/net';

const NGINX = '/usr/sbin/nginx';
const OPERATIONS_MD = resolve(import.meta.dirname, '../../../docs/operations.md');

/** Whether Debian's nginx is installed (CI installs it; a local run without it skips with a reason). */
export const nginxInstalled = () => existsSync(NGINX);

/** A self-signed certificate for `localhost` and 127.0.0.1, made with openssl; returns the PEM paths. */
export function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

/** The first ```nginx block of the § Reverse proxy section of docs/operations.md. */
export function documentedSite(): string {
  const doc = readFileSync(OPERATIONS_MD, 'utf8');
  const section = doc.slice(doc.indexOf('## Reverse proxy (nginx, TLS)'));
  const block = /```nginx\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('docs/operations.md has no nginx block in § Reverse proxy');
  return block;
}

export interface SiteOptions {
  httpsPort: number;
  httpPort: number;
  panelPort: number;
  cert: string;
  key: string;
  /** A change to the documented site (the suite's control run turns request buffering back on). */
  alter?: (site: string) => string;
}

/** The documented site with this machine's values: loopback listeners, the test certificate, the panel's port. */
export function siteFor(o: SiteOptions): string {
  const replaced = documentedSite()
    .replaceAll('hearth.example.com', 'localhost')
    .replace(/^\s*listen \[::\]:\d+.*\n/gm, '')
    .replace('listen 80;', `listen 127.0.0.1:${o.httpPort};`)
    .replace('listen 443 ssl;', `listen 127.0.0.1:${o.httpsPort} ssl;`)
    .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${o.cert};`)
    .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${o.key};`)
    .replace('http://127.0.0.1:8080', `http://127.0.0.1:${o.panelPort}`);
  for (const left of ['example.com', ':8080', '/etc/letsencrypt', 'listen 443', 'listen 80;']) {
    if (replaced.includes(left))
      throw new Error(`the documented site still names ${left} after substitution`);
  }
  return o.alter ? o.alter(replaced) : replaced;
}

export interface RunningNginx {
  /**
   * Bytes of request bodies nginx holds on disk right now. nginx unlinks a buffer file as soon as it creates it,
   * so the folder always looks empty: count the files its workers hold open there (/proc/<pid>/fd).
   */
  bufferedBytes(): number;
  stop(): Promise<void>;
}

function openFilesUnder(pid: number, dir: string): number {
  let total = 0;
  const fds = `/proc/${pid}/fd`;
  let open: string[];
  try {
    open = readdirSync(fds);
  } catch {
    // The worker ended (nginx replaces workers as it likes): it holds nothing.
    return 0;
  }
  for (const fd of open) {
    try {
      if (readlinkSync(join(fds, fd)).startsWith(`${dir}/`)) total += statSync(join(fds, fd)).size;
    } catch {
      // The descriptor closed between the listing and the look: that buffer is gone.
      continue;
    }
  }
  return total;
}

/** nginx's master and its workers (the master's children, from /proc). */
function nginxProcesses(master: number): number[] {
  try {
    const children = readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(/\s+/);
    return [master, ...children.filter(Boolean).map(Number)];
  } catch {
    return [];
  }
}

/** Starts nginx in the foreground (`daemon off`) with everything under `dir`; resolves once it accepts TLS. */
export async function startNginx(dir: string, site: SiteOptions): Promise<RunningNginx> {
  // The workers run as nobody: they must reach the temp folders under `dir`.
  chmodSync(dir, 0o755);
  const bodyTempDir = join(dir, 'client_body_temp');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `    ${kind}_temp_path ${join(dir, `${kind}_temp`)};`)
    .join('\n');
  const conf = `worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 256; }
http {
    access_log off;
${temp}
${siteFor(site)}
}
`;
  const confPath = join(dir, 'nginx.conf');
  writeFileSync(confPath, conf);
  const args = ['-p', dir, '-e', join(dir, 'error.log'), '-c', confPath];
  execFileSync(NGINX, [...args, '-t'], { stdio: 'pipe' });
  const child: ChildProcess = spawn(NGINX, [...args, '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  await waitFor(
    async () => child.exitCode === null && (await tcpAccepts(site.httpsPort)),
    `nginx (${output})`,
  );
  return {
    bufferedBytes: () =>
      nginxProcesses(child.pid ?? 0).reduce((sum, pid) => sum + openFilesUnder(pid, bodyTempDir), 0),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGQUIT');
      await exited;
    },
  };
}
