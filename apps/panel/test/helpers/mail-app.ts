import { buildTestApp, createUser, type TestApp, type TestUser } from './app';
import type { DialectName } from '../../src/db';
import { startSmtp, type SmtpCapture } from './mail-servers';

export interface MailTestApp {
  t: TestApp;
  smtp: SmtpCapture;
  admin: TestUser;
}

/**
 * The panel on `dialect` with one administrator, sending its mail over real SMTP to a capture server in its
 * own process on loopback (smtp-process.ts); links in mails point at https://panel.hearth.test. Close `t`,
 * then `smtp`.
 */
export async function buildMailTestApp(dialect: DialectName, companyName: string): Promise<MailTestApp> {
  const smtp = await startSmtp();
  try {
    const t = await buildTestApp(dialect);
    const admin = await createUser(t, { admin: true });
    await t.services.settings.write({
      'panel.email.provider': 'smtp',
      'panel.email.host': `127.0.0.1:${smtp.port}`,
      'panel.email.from': 'panel@hearth.test',
      'panel.settings.masterUrl': 'https://panel.hearth.test',
      'panel.settings.companyName': companyName,
    });
    return { t, smtp, admin };
  } catch (err) {
    await smtp.close();
    throw err;
  }
}
