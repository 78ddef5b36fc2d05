import { htmlLang, rtlLocales, type LocaleCode } from '@hearth/contract/locales';
import { catalogueFor } from './catalogues';

/** The e-mails Hearth sends. Each has a subject, a text body and an HTML body (variables escaped). */
export const mailKinds = [
  'invitation',
  'accountCreated',
  'emailChanged',
  'passwordChanged',
  'otpEnabled',
  'otpDisabled',
  'oauthCreated',
  'passwordReset',
  'test',
] as const;
export type MailKind = (typeof mailKinds)[number];

export interface MailContext {
  companyName: string;
  masterUrl: string;
  username?: string;
  link?: string;
  newEmail?: string;
  clientName?: string;
}

/** Mails about a security-relevant change end with "if this was not you…". */
const securityNotice: ReadonlySet<MailKind> = new Set(['emailChanged', 'passwordChanged', 'otpDisabled']);

/** `{name}` → the context's value; an unknown or missing placeholder becomes empty text. */
export function interpolate(template: string, context: MailContext): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value: unknown = (context as unknown as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : '';
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export function renderMail(
  kind: MailKind,
  context: MailContext,
  locale: LocaleCode = 'en_US',
): { subject: string; text: string; html: string } {
  const catalogue = catalogueFor(locale);
  const message = catalogue[kind];
  const lines = securityNotice.has(kind) ? [...message.body, catalogue.notYou] : message.body;
  const body = lines.map((line) => interpolate(line, context));
  const footer = `${context.companyName} — ${context.masterUrl}`;
  const text = [...body, '', footer].join('\n');
  const paragraphs = body.map((line) => `<p>${escapeHtml(line)}</p>`).join('');
  // lang lets mail clients pick fonts and screen readers the voice; dir mirrors Arabic and Hebrew.
  const attrs = `lang="${htmlLang(locale)}" dir="${rtlLocales.includes(locale) ? 'rtl' : 'ltr'}"`;
  const html = `<!doctype html><html ${attrs}><body ${attrs} style="font-family:sans-serif">${paragraphs}<hr><p style="color:#666">${escapeHtml(footer)}</p></body></html>`;
  return { subject: interpolate(message.subject, context), text, html };
}
