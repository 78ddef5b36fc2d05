import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenSmtp, type ReceivedMail, type SmtpProcess } from './smtp-process';

/** A real SMTP server in its own process (smtp-process.ts) and the mails it received, in order. */
export async function startSmtp(): Promise<SmtpProcess & { mails: ReceivedMail[] }> {
  const mails: ReceivedMail[] = [];
  const server = await listenSmtp((mail) => mails.push(mail));
  return { ...server, mails };
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP stand-in for Mailgun/Mailjet: records requests and answers with `status`. */
export async function startHttpStandIn(
  status = 200,
): Promise<{ url: string; requests: ReceivedRequest[]; close(): Promise<void> }> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{"id":"queued"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export type SmtpCapture = Awaited<ReturnType<typeof startSmtp>>;
