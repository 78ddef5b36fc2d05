import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request, Agent, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { LinkMux, type MuxStream } from '../../src/link-mux';
import { errorOf, linkPair, readAll, until, type Pair } from './pair';

let pair: Pair | null = null;
afterEach(async () => {
  await pair?.close();
  pair = null;
});

/** The node echoes every stream back, then ends its side when the panel ends its own. */
function echo(p: Pair): void {
  p.node.on('stream', (stream) => {
    stream.on('error', () => {});
    stream.pipe(stream);
  });
}

describe('link mux', () => {
  it('carries many concurrent streams, each intact', async () => {
    pair = await linkPair();
    echo(pair);
    const sent = Array.from({ length: 40 }, () => randomBytes(200_000 + Math.floor(Math.random() * 50_000)));
    const got = await Promise.all(
      sent.map(async (data) => {
        const stream = pair!.panel.open('http');
        stream.end(data);
        return readAll(stream);
      }),
    );
    got.forEach((buf, i) => expect(buf.equals(sent[i]!)).toBe(true));
    await until(() => pair!.panel.size === 0 && pair!.node.size === 0);
  });

  it('bounds what a slow reader makes the far side buffer, and the link stays usable beside it', async () => {
    pair = await linkPair({ window: 256 * 1024, highWater: 256 * 1024 });
    const total = 64 * 1024 * 1024;
    let accepted = 0;
    const hash = createHash('sha256');
    const writer = new Promise<void>((resolve) => {
      pair!.node.on('stream', (stream, kind) => {
        stream.on('error', () => {});
        if (kind !== 'http') return stream.pipe(stream); // a second, small stream: an echo
        const chunk = randomBytes(64 * 1024);
        const write = () => {
          while (accepted < total) {
            accepted += chunk.length;
            hash.update(chunk);
            if (!stream.write(chunk)) return stream.once('drain', write);
          }
          stream.end();
          resolve();
        };
        write();
      });
    });
    const big = pair.panel.open('http');
    big.end();
    big.pause();
    // The writer stops once its credit and its own stream buffer are full: wait until it stops moving.
    let last = -1;
    while (accepted !== last) {
      last = accepted;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    // window (256 KiB) + the writer's highWaterMark (16 KiB) + one chunk in hand: nowhere near 64 MiB.
    expect(accepted).toBeLessThan(1024 * 1024);
    expect(big.readableLength).toBeLessThanOrEqual(256 * 1024);
    // The stalled download does not block another stream of the same link.
    const small = pair.panel.open('sftp');
    small.end(Buffer.from('still here'));
    expect((await readAll(small)).toString()).toBe('still here');
    const mine = createHash('sha256');
    big.resume();
    for await (const chunk of big) mine.update(chunk as Buffer);
    await writer;
    expect(mine.digest('hex')).toBe(hash.digest('hex'));
  });

  it('half-closes: the panel ends its side and still reads the answer', async () => {
    pair = await linkPair();
    pair.node.on('stream', (stream) => {
      stream.on('error', () => {});
      void readAll(stream).then((body) => stream.end(`got ${body.length} bytes`));
    });
    const stream = pair.panel.open('http');
    stream.end(Buffer.alloc(3000));
    expect((await readAll(stream)).toString()).toBe('got 3000 bytes');
  });

  it('resets: a destroyed stream fails on the far side with the reason, the link lives on', async () => {
    pair = await linkPair();
    pair.node.on('stream', (stream, kind) => {
      stream.on('error', () => {});
      if (kind === 'sftp')
        return stream.destroy(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
      stream.pipe(stream);
    });
    const refused = pair.panel.open('sftp');
    const err = await errorOf(refused);
    expect(err.code).toBe('ECONNREFUSED');
    const other = pair.panel.open('http');
    const failed = errorOf(other);
    other.write('x');
    other.destroy(new Error('caller gone'));
    await failed;
    const ok = pair.panel.open('http');
    ok.end('fine');
    expect((await readAll(ok)).toString()).toBe('fine');
  });

  it('a lost link fails every open stream at once with ELINKLOST', async () => {
    pair = await linkPair();
    const accepted: MuxStream[] = [];
    pair.node.on('stream', (stream) => {
      stream.on('error', () => {});
      accepted.push(stream);
    });
    const streams = Array.from({ length: 6 }, () => pair!.panel.open('http'));
    streams.forEach((s) => s.write('hello'));
    await until(() => accepted.length === 6);
    const errors = Promise.all(streams.map(errorOf));
    const closed = once(pair.panel, 'close');
    pair.nodeSocket.terminate();
    expect((await errors).map((e) => e.code)).toEqual(Array(6).fill('ELINKLOST'));
    await closed;
    const late = pair.panel.open('http');
    expect((await errorOf(late)).code).toBe('ELINKLOST');
    expect(pair.panel.closed).toBe(true);
  });

  it('a peer that stops answering pings is declared lost', async () => {
    pair = await linkPair({ pingMs: 100, maxMissedPongs: 2 }, { pingMs: 600_000 });
    pair.node.on('stream', (stream) => stream.on('error', () => {}));
    const stream = pair.panel.open('http');
    const failed = errorOf(stream);
    // A stalled peer (a NAT that dropped the flow): it neither reads the pings nor sends pongs.
    const raw = (pair.nodeSocket as unknown as { _socket: Duplex })._socket;
    raw.pause();
    const err = await failed;
    expect(err.code).toBe('ELINKLOST');
    expect(err.message).toMatch(/stopped answering/);
  });

  it('runs an HTTP server and a keep-alive client through link streams', async () => {
    pair = await linkPair();
    const server = createServer((req, res) => {
      if (req.method === 'GET') return res.end(`hello ${req.url}`);
      const hash = createHash('sha256');
      req.on('data', (chunk: Buffer) => hash.update(chunk));
      req.on('end', () => res.end(hash.digest('hex')));
    });
    pair.node.on('stream', (stream) => server.emit('connection', stream));
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    let opened = 0;
    agent.createConnection = () => {
      opened += 1;
      return pair!.panel.open('http');
    };
    const call = (method: string, path: string, body?: Buffer) =>
      new Promise<{ res: IncomingMessage; text: string }>((resolve, reject) => {
        const req = request({ host: 'node', method, path, agent }, (res) => {
          void readAll(res).then((buf) => resolve({ res, text: buf.toString() }), reject);
        });
        req.on('error', reject);
        req.end(body);
      });
    const gets = await Promise.all(Array.from({ length: 12 }, (_, i) => call('GET', `/${i}`)));
    gets.forEach((g, i) => expect(g.text).toBe(`hello /${i}`));
    const body = randomBytes(5 * 1024 * 1024);
    const posted = await call('POST', '/upload', body);
    expect(posted.text).toBe(createHash('sha256').update(body).digest('hex'));
    expect(opened).toBeLessThanOrEqual(4); // keep-alive reused the streams
    agent.destroy();
    server.close();
  });

  it('a malformed frame closes the link, never the process', async () => {
    for (const bad of [
      Buffer.from([2, 0, 0]), // short
      Buffer.from([9, 0, 0, 0, 1]), // unknown type
      Buffer.from([2, 0, 0, 0, 77, 1]), // data for a stream never opened
      Buffer.from([5, 0, 0, 0, 1, 0, 0]), // a window frame with 2 bytes
      Buffer.from([1, 0, 0, 0, 0, 104]), // stream id 0
      'a text message',
    ]) {
      pair = await linkPair();
      pair.node.on('stream', (stream) => stream.on('error', () => {}));
      const stream = pair.panel.open('http');
      const failed = errorOf(stream);
      const closed = once(pair.node, 'close');
      // Sent straight on the panel's WebSocket, bypassing its mux: the node's mux must refuse it.
      const panelSide = (pair.panel as unknown as { socket: { send(d: unknown): void } }).socket;
      panelSide.send(bad);
      const [err] = (await closed) as [NodeJS.ErrnoException];
      expect(err.code).toBe('ELINKLOST');
      expect(err.message).toMatch(/protocol error/);
      expect((await failed).code).toBe('ELINKLOST');
      await pair.close();
      pair = null;
    }
  });

  it('a mux made on a socket that already closed reports the link lost at once', async () => {
    pair = await linkPair();
    pair.nodeSocket.terminate();
    await once(pair.nodeSocket, 'close');
    const late = new LinkMux(pair.nodeSocket, { role: 'opener' });
    const [err] = (await once(late, 'close')) as [NodeJS.ErrnoException];
    expect(err.code).toBe('ELINKLOST');
    expect(late.closed).toBe(true);
  });
});
