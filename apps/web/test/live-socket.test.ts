import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ServerMessage } from '@hearth/contract';
import { LiveSocket, socketUrl, type LiveState, type SocketLike } from '../src/api/live-socket';
import { FakeClock } from './helpers/fake-clock';
import { fetchHttp, LiveTestServer, settle, waitFor } from './helpers/live-server';

let server: LiveTestServer;
let host: string;
let clock: FakeClock;
let live: LiveSocket;
let messages: ServerMessage[];
let states: LiveState[];
let failedEvents: boolean[];
let httpErrors: unknown[];

function open(serverId = 's1'): LiveSocket {
  live = new LiveSocket(
    {
      serverId,
      http: fetchHttp(host),
      location: { protocol: 'http:', host },
      createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
      clock,
    },
    {
      message: (m) => messages.push(m),
      state: (s) => states.push(s),
      failed: (f) => failedEvents.push(f),
      httpError: (e) => httpErrors.push(e),
    },
  );
  live.connect();
  return live;
}

async function opened(): Promise<void> {
  await waitFor(() => live.state === 'open', 'socket open');
}

/** The server drops the connection and refuses new ones; resolves once the client saw the close. */
async function dropAndRefuse(): Promise<void> {
  server.accept = false;
  server.latest?.terminate();
  await waitFor(() => live.state === 'closed', 'socket closed');
}

/** Advances to the next reconnect and waits for the refused attempt to close again. */
async function failedAttemptAfter(ms: number): Promise<void> {
  const before = server.upgrades.length;
  clock.advance(ms - 1);
  await settle(50);
  expect(server.upgrades.length).toBe(before);
  clock.advance(1);
  await waitFor(() => server.upgrades.length === before + 1, `attempt after ${ms} ms`);
  await waitFor(() => live.state === 'closed', 'attempt refused');
}

beforeEach(async () => {
  server = new LiveTestServer();
  host = await server.start();
  clock = new FakeClock();
  messages = [];
  states = [];
  failedEvents = [];
  httpErrors = [];
});
afterEach(async () => {
  live?.close();
  await server.stop();
});

describe('socketUrl', () => {
  it('uses ws on http pages and wss on https pages, at /proxy/daemon/socket/{id}', () => {
    expect(socketUrl({ protocol: 'http:', host: 'a:1' }, 'ab12')).toBe('ws://a:1/proxy/daemon/socket/ab12');
    expect(socketUrl({ protocol: 'https:', host: 'a' }, 'ab12')).toBe('wss://a/proxy/daemon/socket/ab12');
    expect(socketUrl({ protocol: 'http:', host: 'a' }, '../x')).toBe('ws://a/proxy/daemon/socket/..%2Fx');
  });
});

describe('LiveSocket over a real websocket', () => {
  it('goes connecting → open, queues messages sent before open and sends them on open in order', async () => {
    open();
    expect(live.state).toBe('connecting');
    await live.send({ type: 'status' });
    await live.send({ type: 'replay', data: { since: 0 } });
    await opened();
    await live.send({ type: 'console', data: { command: 'say hi' } });
    await waitFor(() => server.received.length === 3, 'three messages');
    expect(server.received).toEqual([
      { type: 'status' },
      { type: 'replay', data: { since: 0 } },
      { type: 'console', data: { command: 'say hi' } },
    ]);
    expect(states).toEqual(['connecting', 'open']);
    expect(server.upgrades).toEqual(['/proxy/daemon/socket/s1']);
    expect(server.calls).toEqual([]);
  });

  it('emits server messages and remembers the newest console epoch', async () => {
    open();
    await opened();
    server.latest?.send(JSON.stringify({ type: 'console', data: { logs: ['a\n'], epoch: 10 } }));
    server.latest?.send(JSON.stringify({ type: 'status', data: { running: true, installing: false } }));
    server.latest?.send('not json');
    await waitFor(() => messages.length === 2, 'two messages');
    expect(messages[0]).toEqual({ type: 'console', data: { logs: ['a\n'], epoch: 10 } });
    expect(live.lastEpoch).toBe(10);
  });

  it('while closed every action goes over HTTP with the equivalent proxy routes', async () => {
    open();
    await opened();
    await dropAndRefuse();
    for (const type of ['start', 'stop', 'kill', 'install'] as const) void live.send({ type });
    void live.send({ type: 'console', data: { command: 'say over http' } });
    void live.send({ type: 'stat' });
    void live.send({ type: 'status' });
    void live.send({ type: 'replay', data: { since: 77 } });
    await waitFor(() => server.calls.length === 8 && messages.length === 3, 'eight calls');
    const base = '/proxy/daemon/server/s1';
    expect(server.calls.map((c) => `${c.method} ${c.url} ${c.body}`).sort()).toEqual(
      [
        `POST ${base}/start `,
        `POST ${base}/stop `,
        `POST ${base}/kill `,
        `POST ${base}/install `,
        `POST ${base}/console say over http`,
        `GET ${base}/stats `,
        `GET ${base}/status `,
        `GET ${base}/console?time=77 `,
      ].sort(),
    );
    expect(messages).toContainEqual({ type: 'stat', data: { cpu: 12.5, memory: 2048 } });
    expect(messages).toContainEqual({ type: 'status', data: { running: true, installing: false } });
    expect(messages).toContainEqual({ type: 'console', data: { logs: ['polled line\n'], epoch: 4242 } });
    expect(live.lastEpoch).toBe(4242);
  });

  it('reconnects after 500 ms + 500 ms per failed attempt, gives up after 5 with one error', async () => {
    open();
    await opened();
    await dropAndRefuse();
    for (const delay of [500, 1000, 1500, 2000, 2500]) await failedAttemptAfter(delay);
    expect(failedEvents).toEqual([true]);
    expect(live.failed).toBe(true);
    const attempts = server.upgrades.length;
    clock.advance(20_000);
    await settle(50);
    expect(server.upgrades.length).toBe(attempts);
  });

  it('resets the failure counter 30 s after a close; after giving up that starts a new round and recovers', async () => {
    open();
    await opened();
    await dropAndRefuse();
    for (const delay of [500, 1000, 1500, 2000, 2500]) await failedAttemptAfter(delay);
    // The last close was just now; 30 s later the counter resets and a fresh attempt goes out.
    server.accept = true;
    clock.advance(30_000);
    await opened();
    expect(failedEvents).toEqual([true, false]);
    expect(live.failed).toBe(false);
    // A close long after: counter was reset, so the first retry is 500 ms again.
    server.accept = false;
    clock.advance(30_000);
    server.latest?.terminate();
    await waitFor(() => live.state === 'closed', 'closed');
    await failedAttemptAfter(500);
  });

  it('a close within 30 s of the previous one keeps counting', async () => {
    open();
    await opened();
    server.latest?.terminate();
    await waitFor(() => live.state === 'closed', 'closed');
    clock.advance(500);
    await opened();
    server.latest?.terminate();
    await waitFor(() => live.state === 'closed', 'closed again');
    server.accept = false;
    await failedAttemptAfter(1000);
  });

  it('polls replay (since the newest epoch) and status every 5 s while closed, not while open', async () => {
    open();
    await opened();
    server.latest?.send(JSON.stringify({ type: 'console', data: { logs: ['x'], epoch: 99 } }));
    await waitFor(() => live.lastEpoch === 99, 'epoch');
    await dropAndRefuse();
    clock.advance(4999);
    await settle(50);
    expect(server.calls).toEqual([]);
    clock.advance(1);
    await waitFor(() => server.calls.length === 2, 'first poll');
    expect(server.calls.map((c) => c.url).sort()).toEqual([
      '/proxy/daemon/server/s1/console?time=99',
      '/proxy/daemon/server/s1/status',
    ]);
    await waitFor(() => live.lastEpoch === 4242, 'polled epoch');
    server.accept = true;
    clock.advance(1);
    clock.advance(5000);
    await waitFor(() => server.calls.length === 4, 'second poll');
    expect(server.calls[2]?.url).toBe('/proxy/daemon/server/s1/console?time=4242');
    await opened();
    clock.advance(20_000);
    await settle(50);
    expect(server.calls.length).toBe(4);
  });

  it('runs one HTTP replay at a time, each from the newest epoch, so overlapping replays never repeat output', async () => {
    server.accept = false;
    open();
    await waitFor(() => live.state === 'closed', 'closed');
    const release = server.holdConsole();
    const asked = [0, 0, 0].map((since) => live.send({ type: 'replay', data: { since } }));
    await waitFor(() => server.calls.length === 1, 'first replay in flight');
    await settle(50);
    expect(server.calls).toHaveLength(1);
    release();
    await Promise.all(asked);
    expect(server.calls.map((c) => c.url)).toEqual([
      '/proxy/daemon/server/s1/console?time=0',
      '/proxy/daemon/server/s1/console?time=4242',
    ]);
    const shown = messages.flatMap((m) => (m.type === 'console' ? m.data.logs : []));
    expect(shown).toEqual(['polled line\n']);
  });

  it('sends what was queued over HTTP when the connection fails before opening', async () => {
    server.accept = false;
    open();
    void live.send({ type: 'start' });
    await waitFor(() => server.calls.length === 1, 'start over HTTP');
    expect(server.calls[0]).toMatchObject({ method: 'POST', url: '/proxy/daemon/server/s1/start' });
  });

  it('reports HTTP fallback failures', async () => {
    server.accept = false;
    open();
    await waitFor(() => live.state === 'closed', 'closed');
    await server.stop();
    await expect(live.send({ type: 'status' })).rejects.toThrow();
    clock.advance(5000);
    await waitFor(() => httpErrors.length > 0, 'poll error reported');
    server = new LiveTestServer();
    host = await server.start();
  });

  it('close() ends it: no reconnect, no polling, no events', async () => {
    open();
    await opened();
    live.close();
    await settle(50);
    clock.advance(60_000);
    await settle(50);
    expect(server.upgrades.length).toBe(1);
    expect(server.calls).toEqual([]);
    expect(clock.pending()).toBe(0);
    await live.send({ type: 'start' });
    await settle(50);
    expect(server.calls).toEqual([]);
  });
});
