import { AppError } from '@hearth/contract';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailSettings {
  provider: string;
  from: string;
  domain: string;
  key: string;
  host: string;
  username: string;
  password: string;
  mailgunBaseUrl: string;
  mailjetBaseUrl: string;
}

/** `host` may carry a port (`smtp.example.com:587`); 465 means implicit TLS. */
async function sendSmtp(mail: OutgoingMail, s: MailSettings): Promise<void> {
  const [host, port] = s.host.split(':');
  if (!host) throw new AppError('ErrSettingNotConfigured', { setting: 'panel.email.host' });
  const portNumber = port ? Number(port) : 587;
  // Loaded on the first SMTP message only: most panels never send one (docs/performance.md § Start-up).
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({
    host,
    port: portNumber,
    secure: portNumber === 465,
    auth: s.username ? { user: s.username, pass: s.password } : undefined,
    tls: { rejectUnauthorized: false },
    connectionTimeout: 10_000,
  });
  try {
    await transport.sendMail(mail);
  } finally {
    transport.close();
  }
}

async function expectOk(res: Response, provider: string): Promise<void> {
  if (res.ok) return;
  throw new Error(`${provider} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
}

/** Mailgun's HTTP API: form post to /v3/{domain}/messages with basic auth `api:<key>`. */
async function sendMailgun(mail: OutgoingMail, s: MailSettings): Promise<void> {
  const url = `${s.mailgunBaseUrl.replace(/\/+$/, '')}/v3/${encodeURIComponent(s.domain)}/messages`;
  const body = new URLSearchParams({
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  });
  const auth = Buffer.from(`api:${s.key}`).toString('base64');
  await expectOk(
    await fetch(url, { method: 'POST', body, headers: { authorization: `Basic ${auth}` } }),
    'mailgun',
  );
}

/** Mailjet's v3.1 send API; `key` holds `<apiKey>:<secretKey>` (Mailjet authenticates with both). */
async function sendMailjet(mail: OutgoingMail, s: MailSettings): Promise<void> {
  const url = `${s.mailjetBaseUrl.replace(/\/+$/, '')}/v3.1/send`;
  const payload = {
    Messages: [
      {
        From: { Email: mail.from },
        To: [{ Email: mail.to }],
        Subject: mail.subject,
        TextPart: mail.text,
        HTMLPart: mail.html,
      },
    ],
  };
  const auth = Buffer.from(s.key).toString('base64');
  const headers = { authorization: `Basic ${auth}`, 'content-type': 'application/json' };
  await expectOk(await fetch(url, { method: 'POST', body: JSON.stringify(payload), headers }), 'mailjet');
}

export async function deliver(mail: OutgoingMail, settings: MailSettings): Promise<void> {
  switch (settings.provider) {
    case 'smtp':
      return sendSmtp(mail, settings);
    case 'mailgun':
      return sendMailgun(mail, settings);
    case 'mailjet':
      return sendMailjet(mail, settings);
    case 'none':
      throw new AppError('ErrEmailNotConfigured');
    default:
      throw new AppError('ErrServiceInvalidProvider', { service: 'email', provider: settings.provider });
  }
}
