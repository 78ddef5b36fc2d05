/**
 * A browser that stops reading its live socket is not buffered for in the panel: the relay stops reading the
 * daemon's socket, so the daemon's bounded per-subscriber queue drops the oldest output and says how much
 * (`dropped`), which the slow browser sees once it reads again — while a browser reading normally is unaffected.
 * The flood (~45 MB) is larger than what the two loopback connections' kernel buffers can hold, so without the
 * pause the panel would have queued it all for the slow browser and nothing would be dropped.
 * Not a database test: one dialect is enough.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { call, createUser, type TestApp } from '../apps/panel/test/helpers/app';
import { waitFor } from '../apps/daemon/test/helpers/poll';
import {
  createFakeServer,
  listeningPanel,
  registerNode,
  stopPanelWithNode,
  type RegisteredNode,
} from './helpers/node-fixture';

interface ConsoleMsg {
  type: string;
  data: { logs?: string[]; dropped?: number };
}

class Reader {
  dropped = 0;
  done = false;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (raw: Buffer) => {
      const msg = JSON.parse(raw.toString()) as ConsoleMsg;
      if (msg.type !== 'console') return;
      this.dropped += msg.data.dropped ?? 0;
      if (msg.data.logs?.some((line) => line.includes('flood done'))) this.done = true;
    });
  }
}

function open(url: string, id: string, token: string): Promise<WebSocket> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/proxy/daemon/socket/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

describe('live socket backpressure through the panel', { timeout: 180_000 }, () => {
  let t: TestApp;
  let url: string;
  let node: RegisteredNode;
  let admin: string;
  let serverId: string;

  beforeAll(async () => {
    ({ t, url } = await listeningPanel('sqlite'));
    admin = (await createUser(t, { admin: true })).token;
    node = await registerNode(t, admin, 'backpressure');
    serverId = await createFakeServer(t, admin, node.id, 'flooding game');
    const base = `/proxy/daemon/server/${serverId}`;
    expect((await call(t, 'POST', `${base}/install?wait=true`, { token: admin })).statusCode).toBe(204);
    expect((await call(t, 'POST', `${base}/start?wait=true`, { token: admin })).statusCode).toBe(204);
  });
  afterAll(() => stopPanelWithNode(t, node));

  it('drops for the slow browser with a dropped count, and delivers everything to the one that reads', async () => {
    const slowSocket = await open(url, serverId, admin);
    const slow = new Reader(slowSocket);
    const fast = new Reader(await open(url, serverId, admin));
    slowSocket.pause(); // stops reading: its TCP window closes and the panel's writes to it stall
    fast.ws.send(JSON.stringify({ type: 'console', command: 'flood 600000' }));
    await waitFor(() => fast.done, 'the flood to end for the reading browser', { timeoutMs: 150_000 });
    slowSocket.resume();
    await waitFor(() => slow.done, 'the slow browser to catch up', { timeoutMs: 150_000 });
    expect(slow.dropped).toBeGreaterThan(0);
    slowSocket.close();
    fast.ws.close();
  });
});
