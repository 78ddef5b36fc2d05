/**
 * A real HTTP relay in front of a panel, for tests of what a daemon asks the panel: it counts the requests it
 * receives per `METHOD /path`, and it can be cut (the port refuses connections, as a stopped panel), made
 * silent (requests are accepted and never answered, as a hung panel) and restored on the same port.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export class PanelRelay {
  readonly #target: URL;
  readonly #counts = new Map<string, number>();
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  #silent = false;
  port = 0;

  constructor(targetUrl: string) {
    this.#target = new URL(targetUrl);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** How many `method path` requests reached the relay (answered, held or failed). */
  count(method: string, path: string): number {
    return this.#counts.get(`${method} ${path}`) ?? 0;
  }

  /** Listens (again, on the same port once it has one) and forwards every request to the panel. */
  async start(): Promise<void> {
    this.#silent = false;
    const server = createServer((req, res) => {
      const key = `${req.method ?? ''} ${new URL(req.url ?? '/', 'http://relay').pathname}`;
      this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
      if (this.#silent) return; // held until cut or restored, which drop the connection
      const upstream = request(
        {
          host: this.#target.hostname,
          port: this.#target.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.once('error', () => res.destroy());
      req.pipe(upstream);
    });
    server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  /** Stops listening and drops every connection: the daemon's next request is refused at connect. */
  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Keeps accepting requests but answers none of them (until cut or restored). */
  silence(): void {
    this.#silent = true;
  }

  /** Drops held requests and connections, then forwards again on the same port. */
  async restore(): Promise<void> {
    await this.cut();
    await this.start();
  }

  close(): Promise<void> {
    return this.cut();
  }
}
