/**
 * The Debian package (docs/operations.md § Debian package), for real: `package:deb` builds it twice from one
 * tree (the second with a higher version), both units pass `systemd-analyze verify`, lintian reports no error,
 * and in a fresh debootstrap root `dpkg -i` creates the hearth user and data folder and runs the migrations. The
 * command line of hearth.service (read from the installed unit) runs there as its User=, the test sets up the
 * first administrator and logs in, creates a server and installs it; then the second package is installed over
 * the first, and the user, the server and its file are still there with every migration recorded. Last, a node in
 * one step (docs/operations.md § Remote node): a second fresh root runs the install steps of the node's deployment
 * as the API gives them to the Node page — the package comes from the panel's route with the node's credential —
 * then hearth-daemon.service's ExecStart, and the panel reports the node online.
 */
import { execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../apps/daemon/test/helpers/poll';
import { freePort } from '../helpers/net';
import { makeChroot, type Chroot } from './helpers/chroot';
import { buildTestPackages, type TestPackages } from './helpers/packages';
import { startNodeService } from './helpers/node-service';
import { readServiceUnit } from './helpers/unit';

const ROOT = resolve(import.meta.dirname, '../..');
const TOOLS = ['debootstrap', 'dpkg-deb', 'chroot', 'systemd-analyze', 'lintian', 'mount'];
const admin = { username: 'admin', email: 'admin@example.com', password: 'admin-password-1' };

function available(): boolean {
  const missing = TOOLS.filter((tool) => {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  const reason = process.getuid?.() !== 0 ? 'it must run as root (chroot, mount)' : missing.join(', ');
  if (process.getuid?.() === 0 && missing.length === 0) return true;
  if (process.env.CI === 'true') throw new Error(`the Debian package suite cannot run: ${reason}`);
  console.warn(`skipping the Debian package suite: ${reason}`);
  return false;
}

/** The installed package's units checked in a copy of it that also holds the host's systemd units. */
function verifyUnits(deb: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-units-'));
  try {
    execFileSync('dpkg-deb', ['-x', deb, dir]);
    cpSync('/lib/systemd/system', join(dir, 'lib/systemd/system'), { recursive: true, force: false });
    const units = ['/lib/systemd/system/hearth.service', '/lib/systemd/system/hearth-daemon.service'];
    // verify exits 0 on unknown keys or bad values: its complaints on stderr are the result.
    const r = execFileSync('sh', ['-c', `systemd-analyze verify --root="$0" "$@" 2>&1`, dir, ...units]);
    return r.toString();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.runIf(available())('the Debian package', () => {
  let packages: TestPackages;
  let root: Chroot;
  let lintian: Promise<{ stdout: string; stderr: string }>;
  let panel: ChildProcess | undefined;
  let url = '';
  let session = '';
  let serverId = '';
  let nodeRoot: Chroot | undefined;
  let nodeDaemon: ChildProcess | undefined;

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(session ? { authorization: `Bearer ${session}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  };

  /**
   * Runs hearth.service's ExecStart inside the root as its User=, on free loopback ports; its output once the
   * local node is up (and, on a first start, the setup link — printed last).
   */
  async function startService(firstStart: boolean): Promise<string> {
    const unit = readServiceUnit(join(root.dir, 'lib/systemd/system/hearth.service'));
    const { uid, gid } = root.account(unit.user ?? 'root');
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    panel = root.spawnAs(uid, gid, unit.execStart, {
      ...unit.environment,
      HEARTH_WEB_HOST: '127.0.0.1',
      HEARTH_WEB_PORT: String(port),
      HEARTH_NODE_PORT: String(await freePort()),
      HEARTH_NODE_SFTP_HOST: '127.0.0.1',
      HEARTH_NODE_SFTP_PORT: String(await freePort()),
    });
    const child = panel;
    return new Promise((done, fail) => {
      let out = '';
      const onData = (d: Buffer) => {
        out += d.toString();
        const ready = out.includes('Local node started');
        if (ready && (!firstStart || /auth\/setup\?token=[\w-]+\s/.test(out))) done(out);
        if (out.includes('Local node did not start')) fail(new Error(out));
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => fail(new Error(`hearth start exited (${code}): ${out}`)));
    });
  }

  async function stopService(): Promise<void> {
    const child = panel;
    panel = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }

  beforeAll(() => {
    packages = buildTestPackages();
    // lintian takes minutes: it runs while the root is prepared and used.
    lintian = promisify(execFile)('lintian', ['--tag-display-limit', '0', packages.first.deb], {
      maxBuffer: 64 << 20,
    });
    lintian.catch(() => undefined);
    root = makeChroot();
  }, 900_000);

  afterAll(async () => {
    if (nodeDaemon && nodeDaemon.exitCode === null && nodeDaemon.signalCode === null) {
      const exited = new Promise((done) => nodeDaemon?.once('exit', done));
      nodeDaemon.kill('SIGTERM');
      await exited;
    }
    nodeRoot?.close();
    await stopService();
    root?.close();
    packages?.remove();
  });

  it('is named hearth_<version>_<arch>.deb and its units pass systemd-analyze verify', () => {
    const arch = execFileSync('dpkg', ['--print-architecture']).toString().trim();
    expect(basename(packages.first.deb)).toBe(`hearth_${packages.first.version}_${arch}.deb`);
    expect(verifyUnits(packages.first.deb)).toBe('');
  });

  it('installs into a fresh Debian root: user, data folder, migrations, conffile', () => {
    cpSync(packages.first.deb, join(root.dir, 'tmp/hearth-first.deb'));
    const out = root.run(['dpkg', '-i', '/tmp/hearth-first.deb']);
    expect(out).toMatch(/applied: /);
    const { uid, gid } = root.account('hearth');
    const data = statSync(join(root.dir, 'var/lib/hearth'));
    expect([data.uid, data.gid, data.mode & 0o777]).toEqual([uid, gid, 0o750]);
    expect(root.run(['dpkg-query', '-W', '-f=${Conffiles}', 'hearth'])).toContain('/etc/hearth/config.json');
    expect(root.run(['hearth', '--help'])).toContain('daemon');
    expect(root.run(['/usr/lib/hearth/node', '--version']).trim()).toBe(process.version);
  });

  it(
    'runs the service command as the hearth user: setup, login, a server with a file',
    { timeout: 180_000 },
    async () => {
      const out = await startService(true);
      const setupUrl = /(http\S+\/auth\/setup\?token=[\w-]+)/.exec(out)?.[1];
      expect(setupUrl, out).toBeDefined();
      const token = new URL(setupUrl as string).searchParams.get('token');
      expect((await api('POST', '/auth/setup', { ...admin, token })).status).toBe(200);
      const login = await api('POST', '/auth/login', { email: admin.email, password: admin.password });
      expect(login.status, login.text).toBe(200);
      session = (JSON.parse(login.text) as { session: string }).session;
      // The process runs as hearth, and what it writes is hearth's.
      const { uid } = root.account('hearth');
      expect(statSync(join(root.dir, 'var/lib/hearth/hearth.db')).uid).toBe(uid);

      const created = await api('POST', '/api/servers', {
        name: 'kept-across-upgrades',
        node: 'local',
        users: [],
        type: 'echo',
        display: 'Echo',
        data: {},
        install: [{ type: 'writefile', target: 'kept.txt', text: 'still here\n' }],
        run: { command: '/bin/cat', stop: 'stop' },
        environment: { type: 'standard' },
      });
      expect(created.status, created.text).toBe(200);
      serverId = (JSON.parse(created.text) as { id: string }).id;
      const installed = await api('POST', `/proxy/daemon/server/${serverId}/install?wait=true`);
      expect(installed.status, installed.text).toBe(204);
      const file = join(root.dir, 'var/lib/hearth/servers', serverId, 'kept.txt');
      expect(readFileSync(file, 'utf8')).toBe('still here\n');
      // A wrong password is still refused: the login above is not a door left open.
      const wrong = await api('POST', '/auth/login', { email: admin.email, password: 'not-the-password' });
      expect(wrong.status).toBe(400);
      expect(wrong.text).toContain('ErrInvalidCredentials');
    },
  );

  it(
    'upgrades in place: the user, the server and its file survive, migrations run',
    { timeout: 180_000 },
    async () => {
      await stopService();
      cpSync(packages.second.deb, join(root.dir, 'tmp/hearth-second.deb'));
      const out = root.run(['dpkg', '-i', '/tmp/hearth-second.deb']);
      // postinst ran `hearth migrate` again (nothing new between the two builds).
      expect(out).toContain('database is up to date');
      expect(root.run(['dpkg-query', '-W', '-f=${Version}', 'hearth'])).toBe(packages.second.version);
      const migrations = readdirSync(join(ROOT, 'apps/panel/src/db/migrations')).filter((f) =>
        /^\d{4}_.*\.ts$/.test(f),
      );
      const db = new Database(join(root.dir, 'var/lib/hearth/hearth.db'), { readonly: true });
      const recorded = db.prepare('select count(*) as n from kysely_migration').get() as { n: number };
      db.close();
      expect(recorded.n).toBe(migrations.length);

      await startService(false);
      session = '';
      const login = await api('POST', '/auth/login', { email: admin.email, password: admin.password });
      expect(login.status, login.text).toBe(200);
      session = (JSON.parse(login.text) as { session: string }).session;
      const server = await api('GET', `/api/servers/${serverId}`);
      expect(server.status, server.text).toBe(200);
      expect(server.text).toContain('kept-across-upgrades');
      const file = await api('GET', `/proxy/daemon/server/${serverId}/file/kept.txt`);
      expect(file.status, file.text).toBe(200);
      expect(file.text).toBe('still here\n');
    },
  );

  it(
    'a node in one step: a fresh root runs the Node page’s install steps and comes online',
    { timeout: 300_000 },
    async () => {
      const [nodePort, sftpPort] = [await freePort(), await freePort()];
      const host = { publicHost: '127.0.0.1', privateHost: '127.0.0.1' };
      const body = { name: 'one-step', ...host, publicPort: nodePort, privatePort: nodePort, sftpPort };
      const created = await api('POST', '/api/nodes', body);
      expect(created.status, created.text).toBe(200);
      const nodeId = (JSON.parse(created.text) as { id: string }).id;
      // The instructions exactly as the Node page gets them.
      const shown = await api('GET', `/api/nodes/${nodeId}/deployment`);
      expect(shown.status, shown.text).toBe(200);
      const { installSteps, clientId, clientSecret } = JSON.parse(shown.text) as {
        installSteps: string[];
        clientId: string;
        clientSecret: string;
      };
      expect(installSteps.at(-1)).toBe('systemctl enable --now hearth-daemon.service');

      // Before the operator drops the package in: refused without the credential, and a clear 404 with it.
      const packageUrl = `${url}/api/nodes/${nodeId}/package`;
      expect((await fetch(packageUrl)).status).toBe(401);
      const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      const missing = await fetch(packageUrl, { headers: { authorization: basic } });
      const missingText = await missing.text();
      expect(missing.status, missingText).toBe(404);
      expect(missingText).toContain('ErrNodePackageMissing');
      expect(missingText).toContain('/var/lib/hearth/packages');
      // docs/operations.md § Remote node: the package the panel was installed from goes into its packages folder.
      const dropIn = join(root.dir, 'var/lib/hearth/packages', basename(packages.second.deb));
      execFileSync('install', ['-D', '-m', '0644', packages.second.deb, dropIn]);

      nodeRoot = makeChroot();
      for (const step of installSteps) {
        // No systemd in a chroot: the unit's ExecStart is run below as systemd would.
        if (step.startsWith('systemctl ')) continue;
        nodeRoot.run(['sh', '-c', step]);
      }
      expect(nodeRoot.run(['dpkg-query', '-W', '-f=${Version}', 'hearth'])).toBe(packages.second.version);
      const config = statSync(join(nodeRoot.dir, 'etc/hearth/node.json'));
      expect(config.mode & 0o777).toBe(0o600);
      const node = await startNodeService(nodeRoot);
      nodeDaemon = node.process;

      // The panel's status cache settles on its own schedule: wait for the condition, generously.
      const online = await waitFor(
        async () => {
          const list = await api('GET', '/api/nodes');
          const nodes = JSON.parse(list.text) as { id: string; status?: string }[];
          return nodes.find((n) => n.id === nodeId && n.status === 'online');
        },
        'the node online in the panel',
        { timeoutMs: 120_000, intervalMs: 500 },
      ).catch((err: Error) => {
        throw new Error(`${err.message}\n${node.output()}`);
      });
      expect(online.status).toBe('online');
    },
  );

  it('has no lintian errors', { timeout: 600_000 }, async () => {
    const { stdout, stderr } = await lintian.catch((err: { stdout?: string; stderr?: string }) => ({
      stdout: err.stdout ?? '',
      stderr: err.stderr ?? '',
    }));
    const errors = `${stdout}\n${stderr}`.split('\n').filter((line) => line.startsWith('E: '));
    expect(errors).toEqual([]);
    expect(stdout).toContain('W: hearth:');
  });
});
