/**
 * The mail tests' SMTP capture (helpers/smtp-process.ts) is what it claims: a server in another process that
 * nodemailer reaches over TCP, whose mails the test holds as soon as the sender saw them accepted, and that is
 * gone once closed (nothing left listening, no process left behind).
 */
import { createConnection } from 'node:net';
import nodemailer from 'nodemailer';
import { afterAll, describe, expect, it } from 'vitest';
import { startSmtp } from '../helpers/mail-servers';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => resolve(true)).once('error', () => resolve(false));
    socket.once('connect', () => socket.destroy());
  });
}

describe('SMTP capture in its own process', () => {
  let closing: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await closing?.();
  });

  it('receives over SMTP in another process and holds each mail once the sender sees it accepted', async () => {
    const smtp = await startSmtp();
    closing = smtp.close;
    expect(smtp.pid).not.toBe(process.pid);
    expect(alive(smtp.pid)).toBe(true);
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      ignoreTLS: true,
    });
    for (const [i, to] of ['ann@example.com', 'bob@example.com'].entries()) {
      const info = await transport.sendMail({
        from: 'panel@hearth.test',
        to,
        subject: `mail ${i}`,
        text: 'hello',
      });
      expect(info.accepted).toEqual([to]);
      expect(smtp.mails).toHaveLength(i + 1); // no waiting: the capture acknowledged before accepting
      expect(smtp.mails[i]).toMatchObject({ from: 'panel@hearth.test', to: [to] });
      expect(smtp.mails[i]?.raw).toContain(`Subject: mail ${i}`);
    }
    transport.close();

    await smtp.close();
    closing = undefined;
    expect(alive(smtp.pid)).toBe(false);
    expect(await connects(smtp.port)).toBe(false);
  });
});
