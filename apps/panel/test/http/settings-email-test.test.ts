import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { ErrorBody } from '@hearth/contract';
import { EMAIL_TEST_PER_MINUTE } from '@hearth/contract/email-test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUser, type TestUser } from '../helpers/app';
import { buildMailTestApp, type MailTestApp } from '../helpers/mail-app';

/** A loopback port nothing listens on: connecting is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const TEST = '/api/settings/email/test';

// "Send test e-mail" on Settings (issue 16 item 19), against a real SMTP capture server in its own process.
describe('POST /api/settings/email/test', () => {
  let m: MailTestApp;
  let settingsOnly: TestUser;

  beforeAll(async () => {
    m = await buildMailTestApp('sqlite', 'Test Co');
    settingsOnly = await createUser(m.t, { panelSettings: true });
  });
  afterAll(async () => {
    await m?.t.close();
    await m?.smtp.close();
  });

  it('401 anonymous; 403 for a holder of panel.settings who is not an administrator', async () => {
    expect((await call(m.t, 'POST', TEST)).statusCode).toBe(401);
    const denied = await call(m.t, 'POST', TEST, { token: settingsOnly.token });
    expect(denied.statusCode).toBe(403);
    expect(denied.json<ErrorBody>().error.code).toBe('ErrNoPermission');
    expect(m.smtp.mails).toEqual([]);
  });

  it("sends the test mail to the administrator's own address and says where", async () => {
    const res = await call(m.t, 'POST', TEST, { token: m.admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ to: m.admin.email });
    await expect.poll(() => m.smtp.mails.length, { timeout: 30_000 }).toBe(1);
    const [mail] = m.smtp.mails;
    expect(mail?.to).toEqual([m.admin.email.toLowerCase()]);
    expect(mail?.raw).toContain('Subject: Test e-mail from Test Co');
  });

  it('502 ErrEmailSendFailed with the reason when the SMTP server cannot be reached', async () => {
    await m.t.services.settings.write({ 'panel.email.host': `127.0.0.1:${await closedPort()}` });
    const res = await call(m.t, 'POST', TEST, { token: m.admin.token });
    expect(res.statusCode).toBe(502);
    const { error } = res.json<ErrorBody>();
    expect(error.code).toBe('ErrEmailSendFailed');
    expect(String(error.metadata?.reason)).toMatch(/ECONNREFUSED|refused|connect/i);
  });

  it('503 ErrEmailNotConfigured when the provider is None', async () => {
    await m.t.services.settings.write({ 'panel.email.provider': 'none' });
    const res = await call(m.t, 'POST', TEST, { token: m.admin.token });
    expect(res.statusCode).toBe(503);
    expect(res.json<ErrorBody>().error.code).toBe('ErrEmailNotConfigured');
  });

  it(`429 ErrRateLimited after ${EMAIL_TEST_PER_MINUTE} a minute per administrator`, async () => {
    const other = await createUser(m.t, { admin: true });
    const codes: number[] = [];
    for (let i = 0; i < EMAIL_TEST_PER_MINUTE + 1; i++) {
      codes.push((await call(m.t, 'POST', TEST, { token: other.token })).statusCode);
    }
    // Provider None: each counted attempt is refused as not configured, the one over the limit as rate limited.
    expect(codes).toEqual([...Array<number>(EMAIL_TEST_PER_MINUTE).fill(503), 429]);
    const limited = await call(m.t, 'POST', TEST, { token: other.token });
    expect(limited.json<ErrorBody>().error).toMatchObject({ code: 'ErrRateLimited' });
  });
});
