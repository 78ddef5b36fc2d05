/**
 * Settings in Chromium (issue 16 item 19), with mail over real SMTP: "Send test e-mail" mails the administrator's
 * own address and says so, or shows the provider's refusal; a refused save names the field by its label
 * ("Sender address must be …"), not by its key (`panel.email.from`), in English and in German. At 1440×900 and
 * 390×844.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, useSessionIn } from './helpers/browser';
import { BrowserSuite } from './helpers/browser-suite';
import { createFirstAdmin, panelApi, type Account } from './helpers/panel';
import { startSmtpCapture, type SmtpCapture } from './helpers/smtp';

const canRun = browserAvailable('settings e-mail screens');
const viewports = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];
const LONG = { timeout: 60_000 };

describe.runIf(canRun)('e-mail settings in Chromium', () => {
  let smtp: SmtpCapture;
  let suite: BrowserSuite;
  let admin: Account;

  const adminApi = (method: string, path: string, body?: object) =>
    panelApi(suite.panel, admin.session, method, path, body);

  const openSettings = async (viewport: { width: number; height: number }, locale?: string) => {
    const tp = await suite.fresh();
    await tp.page.setViewportSize(viewport);
    await useSessionIn(tp, suite.panel.url, admin.session, admin.scopes);
    if (locale) await tp.page.evaluate(`localStorage.setItem('locale', '${locale}')`);
    await tp.page.goto('/settings');
    return tp;
  };

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    suite = await BrowserSuite.start({
      companyName: 'Ember Hosting',
      email: { provider: 'smtp', host: smtp.host, from: 'panel@hearth.test' },
    });
    admin = await createFirstAdmin(suite.panel);
  });

  afterAll(async () => {
    await suite?.close();
    await smtp?.close();
  }, 300_000);

  for (const viewport of viewports) {
    it(`sends a test e-mail to the administrator and says so (${viewport.width}px)`, async () => {
      await adminApi('POST', '/api/settings', { 'panel.email.host': smtp.host });
      const before = smtp.mails.length;
      const tp = await openSettings(viewport);
      await tp.page.getByTestId('email-test-send').click(LONG);
      const result = tp.page.getByTestId('email-test-result');
      await result.waitFor(LONG);
      expect(await result.getAttribute('data-ok')).toBe('true');
      expect(await result.innerText()).toBe(`Test e-mail sent to ${admin.email}.`);
      const mail = await smtp.waitFor(admin.email, 'Test e-mail from Ember Hosting');
      expect(smtp.mails.length).toBe(before + 1);
      expect(mail.body).toContain('This is a test e-mail from Ember Hosting.');
      expect(tp.pageErrors).toEqual([]);
      await tp.context.close();
    });
  }

  it('shows why the test e-mail was not sent when the SMTP server cannot be reached', async () => {
    // Nothing listens on port 1: the provider is unreachable.
    await adminApi('POST', '/api/settings', { 'panel.email.host': '127.0.0.1:1' });
    try {
      const tp = await openSettings(viewports[1] ?? { width: 390, height: 844 });
      await tp.page.getByTestId('email-test-send').click(LONG);
      const result = tp.page.getByTestId('email-test-result');
      await result.waitFor(LONG);
      expect(await result.getAttribute('data-ok')).toBe('false');
      expect(await result.innerText()).toMatch(/^The e-mail could not be sent: .+/);
      await tp.context.close();
    } finally {
      await adminApi('POST', '/api/settings', { 'panel.email.host': smtp.host });
    }
  });

  it('offers the test only for saved settings', async () => {
    const tp = await openSettings(viewports[0] ?? { width: 1440, height: 900 });
    const send = tp.page.getByTestId('email-test-send');
    await send.waitFor(LONG);
    expect(await send.isEnabled()).toBe(true);
    await tp.page.getByLabel('Sender address').fill('someone-else@hearth.test');
    await expect.poll(() => send.isEnabled()).toBe(false);
    await tp.context.close();
  });

  const labelled = [
    { locale: undefined, label: 'Sender address', text: 'Sender address must be a valid e-mail address' },
    { locale: 'de_DE', label: 'Absenderadresse', text: 'Absenderadresse' },
  ];
  for (const [i, c] of labelled.entries()) {
    const viewport = viewports[i] ?? { width: 1440, height: 900 };
    it(`names a refused field by its label (${c.locale ?? 'en_US'}, ${viewport.width}px)`, async () => {
      const tp = await openSettings(viewport, c.locale);
      const from = tp.page.getByLabel(c.label);
      await from.waitFor(LONG);
      await from.fill('not-an-address');
      await tp.page.locator('form button[type="submit"]').click();
      const toast = tp.page.locator('.mantine-Notification-root').filter({ hasText: c.text });
      await toast.first().waitFor(LONG);
      const text = await toast.first().innerText();
      expect(text).not.toContain('panel.email.from');
      await tp.context.close();
    });
  }
});
