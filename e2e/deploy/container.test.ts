/**
 * The container image (docs/operations.md § Container), built from the repository's Dockerfile on a base imported
 * from Debian's packages (no registry here; e2e/deploy/helpers/image.ts), run with the panel port published on a
 * free loopback port: the first administrator through the setup link `docker logs` shows, a login, a server
 * created on the local node inside the container, installed and started; it runs and answers on its console, and
 * its files are in the /var/lib/hearth volume; the image's health check passes. The container and the image are removed afterwards.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../apps/daemon/test/helpers/poll';

const NAME = `hearth-ci-container-${process.pid}`;
const TAG = `hearth-ci/hearth:test-${process.pid}`;
const admin = { username: 'admin', email: 'admin@example.com', password: 'admin-password-1' };

function dockerAvailable(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    if (process.env.CI === 'true')
      throw new Error('CI needs a running Docker engine (docker.io)', { cause: err });
    console.warn('skipping the container suite: no Docker engine');
    return false;
  }
}

const docker = (...args: string[]) =>
  execFileSync('docker', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

/** A server the container can run without any download: Node (the image's own) echoing its console. */
function echoServer() {
  const game = [
    "console.log('container-game ready');",
    "process.stdin.setEncoding('utf8');",
    "process.stdin.on('data', (d) => d.split('\\n').forEach((l) => l === 'stop' ? process.exit(0) : l && console.log('echo ' + l)));",
  ].join('\n');
  return {
    name: 'in-container',
    node: 'local',
    users: [],
    type: 'echo',
    display: 'Echo',
    data: {},
    install: [{ type: 'writefile', target: 'game.mjs', text: `${game}\n` }],
    run: { command: '/usr/local/bin/node game.mjs', stop: 'stop' },
    environment: { type: 'standard' },
  };
}

describe.runIf(dockerAvailable())('the container image', () => {
  let context = '';
  let url = '';
  let session = '';
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

  beforeAll(async () => {
    const { baseImage, buildImage, prepareContext } = await import('./helpers/image');
    baseImage();
    context = await prepareContext(`container-test-${process.pid}`);
    const started = Date.now();
    buildImage(context, TAG);
    console.log(`docker build of the prepared context: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    docker('run', '-d', '--name', NAME, '-p', '127.0.0.1:0:8080', TAG);
    const port = /127\.0\.0\.1:(\d+)/.exec(docker('port', NAME, '8080/tcp'))?.[1];
    url = `http://127.0.0.1:${port}`;
  }, 900_000);
  afterAll(() => {
    for (const args of [
      ['rm', '-f', '-v', NAME],
      ['rmi', '-f', TAG],
    ]) {
      try {
        docker(...args);
      } catch (err) {
        console.warn(`docker ${args.join(' ')}: ${(err as Error).message}`);
      }
    }
    if (context) rmSync(context, { recursive: true, force: true });
  });

  it(
    'sets up an administrator, logs in, creates and starts a server inside',
    { timeout: 180_000 },
    async () => {
      const setupUrl = await waitFor(
        () => /(http\S+\/auth\/setup\?token=[\w-]+)/.exec(docker('logs', NAME))?.[1],
        'the setup link in docker logs',
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      const token = new URL(setupUrl).searchParams.get('token');
      expect((await api('POST', '/auth/setup', { ...admin, token })).status).toBe(200);
      const login = await api('POST', '/auth/login', { email: admin.email, password: admin.password });
      expect(login.status, login.text).toBe(200);
      session = (JSON.parse(login.text) as { session: string }).session;

      const created = await api('POST', '/api/servers', echoServer());
      expect(created.status, created.text).toBe(200);
      const { id } = JSON.parse(created.text) as { id: string };
      const base = `/proxy/daemon/server/${id}`;
      for (const action of ['install', 'start']) {
        const done = await api('POST', `${base}/${action}?wait=true`);
        expect(done.status, done.text).toBe(204);
      }
      const status = await api('GET', `${base}/status`);
      expect(JSON.parse(status.text)).toMatchObject({ running: true });
      expect((await api('POST', `${base}/console`, { command: 'hello-container' })).status).toBe(204);
      await waitFor(
        async () =>
          (JSON.parse((await api('GET', `${base}/console`)).text) as { logs: string }).logs.includes(
            'echo hello-container',
          ),
        'the echo on the console',
      );
      // The server's folder is in the volume, and it runs under a uid of its own (not root).
      expect(docker('exec', NAME, 'ls', `/var/lib/hearth/servers/${id}`)).toContain('game.mjs');
      const owner = docker('exec', NAME, 'stat', '-c', '%u', `/var/lib/hearth/servers/${id}/game.mjs`).trim();
      expect(Number(owner)).toBeGreaterThan(0);

      // The image's HEALTHCHECK command, run as Docker would: it passes while the panel answers.
      const health = JSON.parse(
        docker('inspect', '-f', '{{json .Config.Healthcheck.Test}}', TAG),
      ) as string[];
      expect(health[0]).toBe('CMD');
      expect(() => docker('exec', NAME, ...health.slice(1))).not.toThrow();
    },
  );
});
