/** A websocket client that records every message and waits for the one a test needs. */
import WebSocket from 'ws';
import { waitFor } from './poll';

export interface Message {
  type: string;
  data: Record<string, unknown> & { logs?: string[]; running?: boolean; error?: { code: string } };
}

export class TestSocket {
  readonly messages: Message[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw: Buffer) => this.messages.push(JSON.parse(raw.toString()) as Message));
  }

  static async open(baseUrl: string, id: string, token: string): Promise<TestSocket> {
    const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}/daemon/socket/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    return new TestSocket(ws);
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  consoleText(): string {
    return this.messages
      .filter((m) => m.type === 'console')
      .flatMap((m) => m.data.logs ?? [])
      .join('');
  }

  waitFor(predicate: (m: Message) => boolean, what: string): Promise<Message> {
    return waitFor(() => this.messages.find(predicate), what);
  }

  waitForConsole(text: string | RegExp): Promise<boolean> {
    const test = (s: string) => (typeof text === 'string' ? s.includes(text) : text.test(s));
    return waitFor(() => test(this.consoleText()), `console output ${String(text)}`);
  }

  close(): void {
    this.ws.close();
  }
}
