import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LiveHttp } from '../../src/api/live-socket';

export interface HttpCall {
  method: string;
  url: string;
  body: string;
}

/**
 * A real HTTP + websocket server standing in for the panel's daemon proxy: the socket at
 * `/proxy/daemon/socket/{id}` (upgrades refused while `accept` is false) and the HTTP routes the fallback uses.
 */
export class LiveTestServer {
  accept = true;
  readonly calls: HttpCall[] = [];
  readonly received: unknown[] = [];
  readonly upgrades: string[] = [];
  readonly sockets: WebSocket[] = [];
  private readonly http: Server;
  private consoleGate: Promise<void> = Promise.resolve();
  private readonly wss = new WebSocketServer({ noServer: true });

  constructor() {
    this.http = createServer((req, res) => void this.answer(req).then((body) => res.end(body)));
    this.http.on('upgrade', (req, socket, head) => {
      this.upgrades.push(req.url ?? '');
      if (!this.accept) {
        socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        this.sockets.push(ws);
        ws.on('message', (data: Buffer) => this.received.push(JSON.parse(data.toString('utf8'))));
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.http.listen(0, '127.0.0.1', resolve));
    return `127.0.0.1:${(this.http.address() as AddressInfo).port}`;
  }

  /** Holds console answers until the returned function is called (requests in flight overlap). */
  holdConsole(): () => void {
    let release = () => undefined as void;
    this.consoleGate = new Promise<void>((resolve) => (release = resolve));
    return release;
  }

  get latest(): WebSocket | undefined {
    return this.sockets.at(-1);
  }

  async stop(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    this.wss.close();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private async answer(req: IncomingMessage): Promise<string> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const url = req.url ?? '';
    this.calls.push({ method: req.method ?? '', url, body });
    if (url.endsWith('/stats')) return JSON.stringify({ cpu: 12.5, memory: 2048 });
    if (url.endsWith('/status')) return JSON.stringify({ running: true, installing: false });
    if (url.includes('/console?time=')) {
      await this.consoleGate;
      // Like the daemon: output newer than `time`, and nothing once the caller has seen epoch 4242.
      const since = Number(new URL(url, 'http://x').searchParams.get('time'));
      return JSON.stringify({ logs: since >= 4242 ? '' : 'polled line\n', epoch: 4242 });
    }
    return '';
  }
}

/** The fallback's HTTP calls over real fetch to the test server. */
export function fetchHttp(host: string): LiveHttp {
  const read = async (res: Response) => {
    const text = await res.text();
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  };
  return {
    get: async (path) => read(await fetch(`http://${host}${path}`)),
    post: async (path, body) =>
      read(
        await fetch(`http://${host}${path}`, {
          method: 'POST',
          headers: body === undefined ? {} : { 'Content-Type': 'text/plain' },
          body,
        }),
      ),
  };
}

/** Waits (real time) for a condition the network makes true. */
export async function waitFor(check: () => boolean, what: string, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Lets in-flight network events land, for asserting that something did NOT happen. */
export function settle(ms = 100): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
