import { listenSmtp } from '../../apps/panel/test/helpers/smtp-process';

export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  /** The raw message with quoted-printable soft breaks and `=3D` undone, so links can be read. */
  body: string;
}

export interface SmtpCapture {
  /** `127.0.0.1:<port>`, the form the panel's `email.host` setting takes. */
  host: string;
  mails: CapturedMail[];
  /** Resolves with the first mail (already received or still to come) to `to` whose subject matches. */
  waitFor(to: string, subject: string | RegExp): Promise<CapturedMail>;
  close(): Promise<void>;
}

function decodeQp(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

function subjectOf(raw: string): string {
  const headers = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const unfolded = headers.replace(/\r?\n[ \t]+/g, ' ');
  return /^Subject: (.*)$/im.exec(unfolded)?.[1]?.trim() ?? '';
}

type Waiter = { matches(mail: CapturedMail): boolean; resolve(mail: CapturedMail): void };

/**
 * A real SMTP server in its own process (apps/panel/test/helpers/smtp-process.ts) on a free local port; this
 * keeps every message it accepts. Waiting is event driven: no polling interval, the test timeout bounds it.
 */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const mails: CapturedMail[] = [];
  const waiters = new Set<Waiter>();
  const receive = (mail: CapturedMail) => {
    mails.push(mail);
    for (const waiter of waiters) {
      if (!waiter.matches(mail)) continue;
      waiters.delete(waiter);
      waiter.resolve(mail);
    }
  };
  const { port, close } = await listenSmtp(({ from, to, raw }) =>
    receive({ from, to, subject: subjectOf(raw), body: decodeQp(raw) }),
  );
  return {
    host: `127.0.0.1:${port}`,
    mails,
    waitFor(to, subject) {
      const matches = (mail: CapturedMail) =>
        mail.to.includes(to.toLowerCase()) &&
        (typeof subject === 'string' ? mail.subject === subject : subject.test(mail.subject));
      const seen = mails.find(matches);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.add({ matches, resolve }));
    },
    close,
  };
}
