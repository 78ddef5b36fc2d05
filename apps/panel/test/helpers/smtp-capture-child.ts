/**
 * The SMTP capture server as its own process (run by smtp-process.ts with `node --import tsx`): a real
 * `smtp-server` on a free loopback port. It prints `{"port"}` once listening, then one JSON line per message
 * (`{"id","from","to","raw"}`), and accepts the message (250) only after the parent has written the id back
 * on stdin: a sender's "sent" then means the test process already holds the mail. It exits when stdin ends,
 * so it never outlives the test process.
 */
import { createInterface } from 'node:readline';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

const waiting = new Map<number, () => void>();
let nextId = 1;

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const id = nextId++;
      waiting.set(id, () => callback());
      const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
      const to = session.envelope.rcptTo.map((r) => r.address);
      const raw = Buffer.concat(chunks).toString('utf8');
      process.stdout.write(`${JSON.stringify({ id, from, to, raw })}\n`);
    });
  },
});

createInterface({ input: process.stdin })
  .on('line', (line) => {
    const id = Number(line);
    waiting.get(id)?.();
    waiting.delete(id);
  })
  .on('close', () => process.exit(0)); // the parent is done (or gone): the listener goes with the process

server.listen(0, '127.0.0.1', () => {
  const { port } = server.server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
