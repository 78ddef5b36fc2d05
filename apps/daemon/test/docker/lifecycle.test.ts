/**
 * A server in the docker environment on the real engine, through the daemon API and socket:
 * create → install (command processor inside a container) → start → console → stats → stop by command →
 * stop by signal → kill → crash → auto-recover; every run leaves no container behind.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/poll';
import { TestSocket } from '../helpers/socket';
import { allServerPermissions } from '../helpers/tokens';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon';
import { containersOf, dockerGameDefinition, removeContainersOf, requireDocker } from './helpers';

const available = await requireDocker();

describe.skipIf(!available)('docker environment lifecycle', { timeout: 120_000 }, () => {
  let d: TestDaemon;
  let token: string;
  let socket: TestSocket;
  const id = `dlife-${process.pid}`;
  const serversDir = () => d.config.serversDir ?? '';

  beforeAll(async () => {
    d = await startTestDaemon({ docker: { socketPath: '/var/run/docker.sock', user: '' } });
    token = await d.user(id, allServerPermissions);
    const created = await d.request('PUT', `/daemon/server/${id}`, {
      token: await d.admin(),
      body: dockerGameDefinition(),
    });
    expect(created.status).toBe(200);
    socket = await TestSocket.open(d.url, id, token);
  });
  afterAll(async () => {
    socket?.close();
    await d?.close();
    if (d) await removeContainersOf(serversDir());
  });

  const post = (action: string) => d.request('POST', `/daemon/server/${id}/${action}?wait=true`, { token });
  const status = async () =>
    (await (await d.request('GET', `/daemon/server/${id}/status`, { token })).json()) as { running: boolean };
  const stats = async () =>
    (await (await d.request('GET', `/daemon/server/${id}/stats`, { token })).json()) as {
      cpu: number;
      memory: number;
    };
  const mark = () => socket.consoleText().length;
  const consoleAfter = (from: number, text: string | RegExp) =>
    waitFor(
      () => {
        const tail = socket.consoleText().slice(from);
        return typeof text === 'string' ? tail.includes(text) : text.test(tail);
      },
      `console ${String(text)}`,
    );

  it('installs with the command processor inside a container of the image', async () => {
    expect((await post('install')).status).toBe(204);
    const root = join(serversDir(), id);
    const uid = process.getuid?.() === 0 ? '1000' : String(process.getuid?.());
    expect((await readFile(join(root, 'uid.txt'), 'utf8')).trim()).toBe(uid);
    expect((await readFile(join(root, 'home.txt'), 'utf8')).trim()).toBe('/home/container');
    expect((await readFile(join(root, 'pwd.txt'), 'utf8')).trim()).toBe('/home/container');
    expect((await stat(join(root, 'game.sh'))).uid).toBe(Number(uid));
    await socket.waitForConsole('Install finished');
    expect(await containersOf(serversDir())).toEqual([]);
  });

  it('a kill during install ends the install container', async () => {
    const admin = await d.admin();
    const slow = { ...dockerGameDefinition(), install: [{ type: 'command', commands: ['sleep 60'] }] };
    expect((await d.request('POST', `/daemon/server/${id}`, { token: admin, body: slow })).status).toBe(204);
    const from = mark();
    const install = post('install');
    await waitFor(
      async () => (await containersOf(serversDir())).some((c) => c.State === 'running'),
      'install',
    );
    expect((await post('kill')).status).toBe(204);
    expect((await install).status).toBe(500);
    await consoleAfter(from, 'failed: aborted by a kill');
    await waitFor(async () => (await containersOf(serversDir())).length === 0, 'install container removed');
    const body = dockerGameDefinition();
    expect((await d.request('POST', `/daemon/server/${id}`, { token: admin, body })).status).toBe(204);
  });

  it('starts, answers commands on the console and reports stats from the engine', async () => {
    expect((await post('start')).status).toBe(204);
    await socket.waitFor((m) => m.type === 'status' && m.data.running === true, 'running status');
    await socket.waitForConsole('fake-game ready');
    const names = (await containersOf(serversDir())).map((c) => c.Names[0]);
    expect(names).toEqual([`/hearth-${id}`]);

    socket.send({ type: 'console', command: 'hello there' });
    await socket.waitForConsole('echo: hello there');

    await stats(); // the first sample is the CPU baseline
    socket.send({ type: 'console', command: 'burn' });
    const busy = await waitFor(async () => {
      const s = await stats();
      return s.cpu > 0 && s.memory > 0 ? s : null;
    }, 'non-zero CPU and memory');
    expect(busy.memory).toBeGreaterThan(0);
    socket.send({ type: 'stat' });
    await socket.waitFor((m) => m.type === 'stat' && Number(m.data.memory) > 0, 'stat event');
  });

  it('stops by the stop command; the container is removed', async () => {
    const from = mark();
    expect((await post('stop')).status).toBe(204);
    await consoleAfter(from, 'fake-game: stopping');
    await consoleAfter(from, 'Stopped on request; no automatic restart.');
    expect(await status()).toMatchObject({ running: false });
    expect(await stats()).toEqual({ cpu: 0, memory: 0 });
    expect(await containersOf(serversDir())).toEqual([]);
  });

  it('stops by a signal sent through the engine', async () => {
    const definition = dockerGameDefinition({}, { stop: undefined, stopCode: 15 });
    const admin = await d.admin();
    expect((await d.request('POST', `/daemon/server/${id}`, { token: admin, body: definition })).status).toBe(
      204,
    );
    const from = mark();
    expect((await post('start')).status).toBe(204);
    await consoleAfter(from, 'fake-game ready');
    expect((await post('stop')).status).toBe(204);
    await consoleAfter(from, 'fake-game: got SIGTERM');
    await consoleAfter(from, 'Stopped on request; no automatic restart.');
    expect(socket.consoleText().slice(from)).not.toContain('killing it');
    expect(await containersOf(serversDir())).toEqual([]);
  });

  it('kills through the engine without a restart', async () => {
    const from = mark();
    expect((await post('start')).status).toBe(204);
    await consoleAfter(from, 'fake-game ready');
    expect((await post('kill')).status).toBe(204);
    await consoleAfter(from, /Server exited with signal SIGKILL/);
    await consoleAfter(from, 'Stopped on request; no automatic restart.');
    expect(await status()).toMatchObject({ running: false });
    expect(await containersOf(serversDir())).toEqual([]);
  });

  it('recovers from a crash with a new container', async () => {
    expect((await post('start')).status).toBe(204);
    await waitFor(async () => (await status()).running, 'running');
    const from = mark();
    socket.send({ type: 'console', command: 'crash' });
    await consoleAfter(from, /Server exited with code 7[^\n]*\n[^\n]*Restarting in [\d.]+ s \(autorecover\)/);
    await consoleAfter(from, 'Starting server (automatic restart)');
    await waitFor(async () => (await status()).running, 'auto-recovered server');
    await consoleAfter(from, /Starting server \(automatic restart\)[\s\S]*fake-game ready/);
    expect((await containersOf(serversDir())).length).toBe(1);
    expect((await post('stop')).status).toBe(204);
    expect(await containersOf(serversDir())).toEqual([]);
  });
});
