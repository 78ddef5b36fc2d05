/** Every route and every socket message refuses a missing permission; forged, expired and foreign tokens fail. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerPermission } from '@hearth/contract';
import { TestSocket } from './helpers/socket';
import { generateTestKeys, signDaemonToken } from './helpers/tokens';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

const id = 'perm1';
const routes: Array<[string, string, ServerPermission | 'admin']> = [
  ['GET', '', 'admin'],
  ['POST', '', 'admin'],
  ['POST', '/reload', 'admin'],
  ['DELETE', '', 'admin'],
  ['GET', '/data', 'editServerData'],
  ['POST', '/data', 'editServerData'],
  ['GET', '/stats', 'viewServerStats'],
  ['GET', '/console', 'viewServerConsole'],
  ['POST', '/console', 'sendServerConsole'],
  ['POST', '/start', 'startServer'],
  ['POST', '/stop', 'stopServer'],
  ['POST', '/kill', 'stopServer'],
  ['POST', '/install', 'installServer'],
];

describe('daemon permissions', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await startTestDaemon();
    await d.request('PUT', `/daemon/server/${id}`, { token: await d.admin(), body: fakeGameDefinition() });
  });
  afterAll(async () => d.close());

  it.each(routes)('%s %s needs %s', async (method, path, need) => {
    const url = `/daemon/server/${id}${path}`;
    expect((await d.request(method, url)).status).toBe(401);
    const others = await d.user(id, []);
    const res = await d.request(method, url, { token: others, body: {} });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: { code: string } };
    expect(body.error.code).toBe('ErrMissingScope');
    if (need !== 'admin') {
      const foreign = await d.user('another-server', [need]);
      expect((await d.request(method, url, { token: foreign, body: {} })).status).toBe(403);
    }
  });

  it('refuses forged, expired, foreign-node and wrong-issuer tokens', async () => {
    const other = await generateTestKeys();
    const forged = await signDaemonToken(other.privateKey, { nodeId: 'test-node', admin: true });
    const expired = await d.token({ admin: true, expiresIn: -120 });
    const foreignNode = await d.token({ admin: true, nodeId: 'other-node' });
    const wrongIssuer = await d.token({ admin: true, issuer: 'someone' });
    for (const token of [forged, expired, foreignNode, wrongIssuer, 'not-a-jwt']) {
      const res = await d.request('GET', `/daemon/server/${id}/status`, { token });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ErrDaemonTokenInvalid');
    }
  });

  it('checks each socket message against the token', async () => {
    const viewer = await d.user(id, ['viewServerConsole']);
    const socket = await TestSocket.open(d.url, id, viewer);
    for (const type of ['start', 'stop', 'kill', 'install', 'stat']) socket.send({ type });
    socket.send({ type: 'console', command: 'say hi' });
    socket.send({ type: 'status' });
    await socket.waitFor((m) => m.type === 'status', 'status reply');
    const errors = await waitForErrors(socket, 6);
    expect(errors.every((code) => code === 'ErrMissingScope')).toBe(true);
    expect(
      (
        (await (await d.request('GET', `/daemon/server/${id}/status`, { token: viewer })).json()) as {
          running: boolean;
        }
      ).running,
    ).toBe(false);
    socket.close();
  });

  it('refuses a socket for another server before the upgrade; without viewServerConsole no console', async () => {
    const other = await d.user('another-server', ['viewServerConsole']);
    await expect(TestSocket.open(d.url, id, other)).rejects.toThrow('HTTP 403');
    // Any access opens the socket (files need it), but console output needs viewServerConsole.
    const filesOnly = await TestSocket.open(d.url, id, await d.user(id, ['viewServerFiles']));
    filesOnly.send({ type: 'replay', since: 0 });
    const refusal = await filesOnly.waitFor((m) => m.type === 'error', 'refusal');
    expect(refusal.data.error?.code).toBe('ErrMissingScope');
    filesOnly.close();
    await expect(TestSocket.open(d.url, 'nope', await d.admin())).rejects.toThrow('HTTP 404');
  });
});

async function waitForErrors(socket: TestSocket, count: number): Promise<string[]> {
  await socket.waitFor(
    () => socket.messages.filter((m) => m.type === 'error').length >= count,
    `${count} errors`,
  );
  return socket.messages.filter((m) => m.type === 'error').map((m) => m.data.error?.code ?? '');
}
