import { createServer, type Server } from 'node:net';

/** A TCP port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((done) => probe.once('listening', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

/** A listener that counts the connections made to it (and drops each at once). */
export interface ConnectionCounter {
  port: number;
  count(): number;
  close(): Promise<void>;
}

export async function countConnections(): Promise<ConnectionCounter> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  server.listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  const { port } = server.address() as { port: number };
  return { port, count: () => count, close: () => new Promise((done) => server.close(() => done())) };
}

/** The status of an HTTP GET, or null while nothing answers. */
export async function httpStatus(url: string): Promise<number | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return null;
  }
}

/** Polls until `url` answers over HTTP (any status); the cap only bounds a hung start. */
export async function untilAnswers(url: string, capMs = 90_000): Promise<number> {
  const deadline = Date.now() + capMs;
  for (;;) {
    const status = await httpStatus(url);
    if (status !== null) return status;
    if (Date.now() > deadline) throw new Error(`${url} never answered`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
