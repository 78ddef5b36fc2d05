/**
 * A test's end of a live server socket (the panel's `/proxy/daemon/socket/{id}` or a daemon's own): every frame
 * it received, in order, and how it closed — for the tests that assert what a socket was sent or refused.
 */
import WebSocket from 'ws';
import { waitFor } from '../../apps/daemon/test/helpers/poll';

export interface SocketMessage {
  type: string;
  data: Record<string, unknown> & { logs?: string[]; error?: { code: string } };
}

export class SocketClient {
  readonly messages: SocketMessage[] = [];
  closed: { code: number; reason: string } | null = null;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (raw: Buffer) => this.messages.push(JSON.parse(raw.toString()) as SocketMessage));
    ws.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
  }
  send(message: object) {
    this.ws.send(JSON.stringify(message));
  }
  of(type: string): SocketMessage[] {
    return this.messages.filter((m) => m.type === type);
  }
  /** The codes of the `error` frames received. */
  errors(): Array<string | undefined> {
    return this.of('error').map((m) => m.data.error?.code);
  }
  /** The console output received, joined. */
  logs(): string {
    return this.messages.flatMap((m) => (m.type === 'console' ? (m.data.logs ?? []) : [])).join('');
  }
  async pong(count: number) {
    await waitFor(() => this.of('pong').length >= count, `pong ${count}`);
  }
}

/** Opens a socket; resolves with the client once open, or rejects with the status of a refused upgrade. */
export function openSocketAt(url: string, headers: Record<string, string>): Promise<SocketClient> {
  const ws = new WebSocket(url, { headers });
  const client = new SocketClient(ws);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** The panel's proxied socket of a server (`url`: the panel's http URL). */
export function openServerSocket(url: string, serverId: string, headers: Record<string, string>) {
  return openSocketAt(`${url.replace('http', 'ws')}/proxy/daemon/socket/${serverId}`, headers);
}
