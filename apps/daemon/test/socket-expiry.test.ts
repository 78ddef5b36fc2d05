/** A socket lives only as long as the token it was opened with: the daemon closes it at expiry (4001). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSocket } from './helpers/socket';
import { allServerPermissions } from './helpers/tokens';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

const id = 'expiry1';

function closed(socket: TestSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) =>
    socket.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
}

describe('socket token expiry', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await startTestDaemon({
      socket: { maxPerServer: 2, maxMessageBytes: 16 * 1024, messagesPerSecond: 20 },
    });
    await d.request('PUT', `/daemon/server/${id}`, { token: await d.admin(), body: fakeGameDefinition() });
  });
  afterAll(async () => d.close());

  it('closes a socket when its token expires, leaves others open and frees its slot', async () => {
    const long = await TestSocket.open(d.url, id, await d.user(id, allServerPermissions));
    const short = await TestSocket.open(
      d.url,
      id,
      await d.token({ server: id, perms: allServerPermissions, expiresIn: 1 }),
    );
    // While the token is valid the socket works.
    short.send({ type: 'ping' });
    await short.waitFor((m) => m.type === 'pong', 'pong');

    const { code, reason } = await closed(short);
    expect(code).toBe(4001);
    expect(reason).toBe('token expired');
    const error = short.messages.find((m) => m.type === 'error');
    expect(error?.data.error?.code).toBe('ErrDaemonTokenInvalid');

    // The long-lived socket is untouched and its slot count was released for the closed one.
    long.send({ type: 'ping' });
    await long.waitFor((m) => m.type === 'pong', 'pong on the long-lived socket');
    const fresh = await TestSocket.open(d.url, id, await d.user(id, allServerPermissions));
    fresh.send({ type: 'status' });
    await fresh.waitFor((m) => m.type === 'status', 'status on a fresh socket');
    fresh.close();
    long.close();
  });

  it('refuses to open a socket with an already expired token', async () => {
    const expired = await d.token({ server: id, perms: allServerPermissions, expiresIn: -60 });
    await expect(TestSocket.open(d.url, id, expired)).rejects.toThrow(/401/);
  });
});
