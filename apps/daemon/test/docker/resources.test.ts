/**
 * Docker networking, limits and failures on the real engine: a port binding reachable from the host, a port
 * already allocated, an invalid binding, a missing image, the memory limit, admin-only bindings, and the
 * node's feature report (with and without an engine).
 */
import { createServer } from 'node:net';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDaemonMessage } from '@hearth/contract/daemon-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/poll';
import { TestSocket } from '../helpers/socket';
import { allServerPermissions } from '../helpers/tokens';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon';
import { containersOf, dockerGameDefinition, removeContainersOf, requireDocker } from './helpers';

const available = await requireDocker();

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

describe.skipIf(!available)('docker ports, limits and errors', { timeout: 120_000 }, () => {
  let d: TestDaemon;
  let admin: string;
  const suffix = process.pid;
  const serversDir = () => d.config.serversDir ?? '';

  beforeAll(async () => {
    d = await startTestDaemon();
    admin = await d.admin();
  });
  afterAll(async () => {
    await d?.close();
    if (d) await removeContainersOf(serversDir());
  });

  async function create(id: string, env: Record<string, unknown>, run: Record<string, unknown> = {}) {
    const res = await d.request('PUT', `/daemon/server/${id}`, {
      token: admin,
      body: dockerGameDefinition(env, run),
    });
    expect(res.status).toBe(200);
    expect((await d.request('POST', `/daemon/server/${id}/install?wait=true`, { token: admin })).status).toBe(
      204,
    );
    return TestSocket.open(d.url, id, await d.user(id, allServerPermissions));
  }
  const post = (id: string, action: string) =>
    d.request('POST', `/daemon/server/${id}/${action}?wait=true`, { token: admin });
  const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

  it('reports docker in the node features', async () => {
    const res = await d.request('GET', '/daemon/features', { token: admin });
    expect(await res.json()).toMatchObject({ docker: true, environments: ['standard', 'tty', 'docker'] });
    const user = await d.user('x', allServerPermissions);
    expect((await d.request('GET', '/daemon/features', { token: user })).status).toBe(403);
  });

  it('publishes a port binding reachable from the host; a taken port is ErrDockerPortAllocated', async () => {
    const id = `dport-${suffix}`;
    const port = await freePort();
    const socket = await create(id, { networkMode: 'bridge', portBindings: [`{ip}:${port}:8080/tcp`] });
    await mkdir(join(serversDir(), id, 'www'), { recursive: true });
    await writeFile(join(serversDir(), id, 'www', 'hello.txt'), 'hello from the container\n');
    expect((await post(id, 'start')).status).toBe(204);
    await socket.waitForConsole('fake-game ready');
    socket.send({ type: 'console', command: 'serve 8080' });
    await socket.waitForConsole('fake-game: serving');
    const body = await waitFor(
      async () => (await fetch(`http://127.0.0.1:${port}/hello.txt`)).text(),
      'http',
    );
    expect(body).toBe('hello from the container\n');

    const other = `dport2-${suffix}`;
    const otherSocket = await create(other, {
      networkMode: 'bridge',
      portBindings: [`127.0.0.1:${port}:8080`],
    });
    const res = await post(other, 'start');
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toBe('ErrDockerPortAllocated');
    await otherSocket.waitForConsole(`Port ${port} is already allocated`);
    expect((await containersOf(serversDir())).map((c) => c.Names[0])).toEqual([`/hearth-${id}`]);
    expect((await post(id, 'stop')).status).toBe(204);
    socket.close();
    otherSocket.close();
  });

  it('refuses an invalid port binding and a missing image with a console line', async () => {
    const id = `dbad-${suffix}`;
    const socket = await create(id, { networkMode: 'bridge', portBindings: ['80:81/sctp'] });
    const bad = await post(id, 'start');
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toBe('ErrDockerBindingInvalid');
    await socket.waitForConsole("The binding '80:81/sctp' is invalid");

    const body = dockerGameDefinition({ image: 'hearth-test/missing:${greeting}' });
    expect((await d.request('POST', `/daemon/server/${id}`, { token: admin, body })).status).toBe(204);
    const missing = await post(id, 'start');
    expect(missing.status).toBe(400);
    expect(await errorOf(missing)).toBe('ErrDockerImageMissing');
    await socket.waitForConsole(/Cannot pull image hearth-test\/missing:hello/);
    // The pull lines carry their code after the English text, which API clients read unchanged (issue 16 item 13).
    const coded = socket
      .consoleText()
      .split('\n')
      .flatMap((l) => parseDaemonMessage(l) ?? []);
    expect(coded).toContainEqual({
      code: 'docker.pulling',
      params: { image: 'hearth-test/missing:hello' },
      text: '[DAEMON] Image hearth-test/missing:hello is not on this node; pulling it',
    });
    const failed = coded.find((m) => m.code === 'docker.pullFailed');
    expect(failed?.params.image).toBe('hearth-test/missing:hello');
    expect(failed?.text).toBe(
      `[DAEMON] Cannot pull image hearth-test/missing:hello: ${failed?.params.reason}`,
    );
    await socket.waitForConsole("The image 'hearth-test/missing:hello' is not available");
    expect(await containersOf(serversDir())).toEqual([]);
    socket.close();
  });

  it('enforces the memory and process limits: the allocating process is killed and reported', async () => {
    const id = `dmem-${suffix}`;
    const socket = await create(id, { resources: { memory: 48 * 1024 * 1024, pidsLimit: 64 } });
    expect((await post(id, 'start')).status).toBe(204);
    await socket.waitForConsole('fake-game ready');
    socket.send({ type: 'console', command: 'eat' });
    await socket.waitForConsole('Out of memory: the container reached its memory limit');
    await socket.waitForConsole('fake-game: eat ended with 137');
    // Past pidsLimit a fork fails inside the container (ash may give up); the daemon is unaffected.
    socket.send({ type: 'console', command: 'forks' });
    await socket.waitForConsole(/can't fork|Resource temporarily unavailable/);
    expect((await post(id, 'kill')).status).toBe(204);
    expect((await d.request('GET', '/daemon', {})).status).toBe(200);
    socket.close();
  });

  it('honours extra bindings only in definitions written by an admin', async () => {
    const id = `dbind-${suffix}`;
    const shared = await mkdtemp(join(tmpdir(), 'hearth-binding-'));
    await chmod(shared, 0o755); // the container user (not root) reads it
    await writeFile(join(shared, 'motd.txt'), 'shared file\n');
    const env = { bindings: { [shared]: '/srv/shared' } };
    const run = { command: 'sh -c "cat /srv/shared/motd.txt > seen.txt; sh game.sh"' };
    const socket = await create(id, env, run);
    expect((await post(id, 'start')).status).toBe(204);
    await socket.waitForConsole('fake-game ready');
    expect(await readFile(join(serversDir(), id, 'seen.txt'), 'utf8')).toBe('shared file\n');
    expect((await post(id, 'stop')).status).toBe(204);

    // A definition file not marked by an admin route (e.g. written by hand): the binding is ignored.
    const file = join(serversDir(), `${id}.json`);
    const stored = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...stored, adminEdited: false }));
    expect((await d.request('POST', `/daemon/server/${id}/reload`, { token: admin })).status).toBe(204);
    expect((await post(id, 'start')).status).toBe(204);
    await socket.waitForConsole('Extra bindings ignored');
    await socket.waitForConsole(/can't open '\/srv\/shared\/motd.txt'|No such file/);
    expect((await post(id, 'stop')).status).toBe(204);
    socket.close();
    await rm(shared, { recursive: true, force: true });
  });
});

describe('docker engine unreachable', { timeout: 60_000 }, () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await startTestDaemon({ docker: { socketPath: '/nonexistent/docker.sock', user: '' } });
  });
  afterAll(async () => d?.close());

  it('reports no docker and refuses to start with ErrDockerNotAvailable, without crashing', async () => {
    const admin = await d.admin();
    const features = (await (await d.request('GET', '/daemon/features', { token: admin })).json()) as {
      docker: boolean;
      dockerError: string;
    };
    expect(features).toMatchObject({ docker: false, environments: ['standard', 'tty'] });
    expect(features.dockerError).toMatch(/engine not running/);
    const id = 'dnone';
    const body = dockerGameDefinition();
    expect((await d.request('PUT', `/daemon/server/${id}`, { token: admin, body })).status).toBe(200);
    const socket = await TestSocket.open(d.url, id, admin);
    const res = await d.request('POST', `/daemon/server/${id}/start?wait=true`, { token: admin });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ErrDockerNotAvailable');
    await socket.waitForConsole('Docker is not available on this node');
    expect((await d.request('GET', '/daemon', {})).status).toBe(200);
    socket.close();
  });
});
