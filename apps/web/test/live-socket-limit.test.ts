/**
 * A socket the panel closes for a reason retrying cannot fix (4429 `ErrSocketLimit`: too many sockets for this
 * user or server) is not retried in a loop: the client gives up at once with that code, so the page shows it,
 * and tries again only after the 30 s failure reset. Other closes still reconnect as before.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { LiveSocket, type SocketLike } from '../src/api/live-socket';
import { FakeClock } from './helpers/fake-clock';
import { fetchHttp, LiveTestServer, settle, waitFor } from './helpers/live-server';

let server: LiveTestServer;
let clock: FakeClock;
let live: LiveSocket;
let failed: Array<[boolean, string | undefined]>;

beforeEach(async () => {
  server = new LiveTestServer();
  const host = await server.start();
  clock = new FakeClock();
  failed = [];
  live = new LiveSocket(
    {
      serverId: 's1',
      http: fetchHttp(host),
      location: { protocol: 'http:', host },
      createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
      clock,
    },
    { failed: (f, code) => failed.push([f, code]) },
  );
  live.connect();
  await waitFor(() => live.state === 'open', 'socket open');
});
afterEach(async () => {
  live.close();
  await server.stop();
});

describe('LiveSocket close reasons', () => {
  it('4429 ErrSocketLimit: gives up at once with the code, no reconnect until the 30 s reset', async () => {
    server.latest?.close(4429, 'ErrSocketLimit');
    await waitFor(() => failed.length === 1, 'gave up');
    expect(failed).toEqual([[true, 'ErrSocketLimit']]);
    expect(live.failed).toBe(true);
    clock.advance(29_999);
    await settle(50);
    expect(server.upgrades).toHaveLength(1);
    clock.advance(1);
    await waitFor(() => live.state === 'open', 'reopened after the reset');
    expect(server.upgrades).toHaveLength(2);
    expect(failed).toEqual([
      [true, 'ErrSocketLimit'],
      [false, undefined],
    ]);
  });

  it('a close without a catalogued reason reconnects after 500 ms, as before', async () => {
    server.latest?.close(4502, 'node connection lost');
    await waitFor(() => live.state === 'closed', 'closed');
    clock.advance(500);
    await waitFor(() => live.state === 'open', 'reconnected');
    expect(failed).toEqual([]);
  });
});
