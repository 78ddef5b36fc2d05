/** Loopback TCP helpers for suites that run real game servers on ports of their own. */
import { connect, createServer } from 'node:net';

/** A TCP port nobody listens on right now (the OS picks it; the caller binds it soon after). */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((done) => probe.once('listening', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

/** Whether a TCP connection to 127.0.0.1:`port` is accepted (then closed at once); false when refused. */
export function tcpAccepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}
