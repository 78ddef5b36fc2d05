import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '@hearth/contract';
import { DEFAULT_LOCALE, isLocaleCode, type LocaleCode } from '@hearth/contract/locales';
import type { PanelConfig } from '../../config/schema';
import type { EffectiveSettings, SettingsService } from '../settings/settings.service';
import { renderMail, type MailContext, type MailKind } from './messages';
import { deliver, type MailSettings } from './providers';

type Context = Omit<MailContext, 'companyName' | 'masterUrl'>;

/** Who receives a mail, for its language: the user's `locale` setting, or a locale chosen for them. */
export interface Recipient {
  userId?: string;
  locale?: string;
}

/** Reads one user's saved `locale` setting (the user-settings repository). */
export type UserLocaleLookup = (userId: string) => Promise<string | undefined>;

/**
 * Sends notification e-mails in the background: a failing or slow provider never fails or delays the
 * request that triggered the mail; failures are logged. `idle()` lets tests wait for deliveries.
 */
export class EmailService {
  #pending = new Set<Promise<void>>();

  constructor(
    private readonly settings: SettingsService,
    private readonly config: PanelConfig,
    private readonly log: () => FastifyBaseLogger,
    private readonly userLocale: UserLocaleLookup,
  ) {}

  send(kind: MailKind, to: string, context: Context = {}, recipient: Recipient = {}): void {
    const job = this.#deliver(kind, to, context, recipient).catch((err: unknown) => {
      this.log().warn({ err, kind }, 'e-mail not sent');
    });
    this.#pending.add(job);
    void job.finally(() => this.#pending.delete(job));
  }

  /**
   * Sends now and says what happened, for a caller that must tell the user (an invitation: docs/security.md §
   * Invitations). A failure is logged and answered as `failed`, never thrown.
   */
  async sendReporting(
    kind: MailKind,
    to: string,
    context: Context = {},
    recipient: Recipient = {},
  ): Promise<'sent' | 'noProvider' | 'failed'> {
    if ((await this.settings.effective())['panel.email.provider'] === 'none') return 'noProvider';
    try {
      await this.#deliver(kind, to, context, recipient);
      return 'sent';
    } catch (err) {
      this.log().warn({ err, kind }, 'e-mail not sent');
      return 'failed';
    }
  }

  async idle(): Promise<void> {
    await Promise.all([...this.#pending]);
  }

  /** Recipient's choice → panel default → English. */
  async localeFor(recipient: Recipient, s?: EffectiveSettings): Promise<LocaleCode> {
    if (isLocaleCode(recipient.locale)) return recipient.locale;
    const own = recipient.userId ? await this.userLocale(recipient.userId) : undefined;
    if (isLocaleCode(own)) return own;
    const panelDefault = (s ?? (await this.settings.effective()))['panel.settings.defaultLocale'];
    return isLocaleCode(panelDefault) ? panelDefault : DEFAULT_LOCALE;
  }

  async #deliver(kind: MailKind, to: string, context: Context, recipient: Recipient): Promise<void> {
    const s = await this.settings.effective();
    if (s['panel.email.provider'] === 'none') return;
    const companyName = String(s['panel.settings.companyName'] || 'Hearth');
    const locale = await this.localeFor(recipient, s);
    const mail = renderMail(kind, { ...context, companyName, masterUrl: this.#masterUrl(s) }, locale);
    const settings = this.#mailSettings(s);
    await deliver({ ...mail, from: settings.from, to }, settings);
  }

  /**
   * Sends a plain-text mail now and lets a failure reach the caller: alerts (docs/alerts.md) retry it and
   * show it in their delivery log. No provider configured is a failure too.
   */
  async sendText(to: string, subject: string, text: string): Promise<void> {
    const s = await this.settings.effective();
    if (s['panel.email.provider'] === 'none') throw new AppError('ErrEmailNotConfigured');
    const settings = this.#mailSettings(s);
    const html = `<pre>${text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</pre>`;
    await deliver({ from: settings.from, to, subject, text, html }, settings);
  }

  /**
   * The settings page's test mail (issue 16 item 19), to the caller, now: 503 ErrEmailNotConfigured without a
   * provider, 502 ErrEmailSendFailed with the provider's reason when it refuses or cannot be reached.
   */
  async sendTest(to: string, recipient: Recipient): Promise<void> {
    if ((await this.settings.effective())['panel.email.provider'] === 'none') {
      throw new AppError('ErrEmailNotConfigured');
    }
    try {
      await this.#deliver('test', to, {}, recipient);
    } catch (err) {
      this.log().warn({ err }, 'test e-mail not sent');
      const reason = err instanceof Error ? err.message : String(err);
      throw new AppError('ErrEmailSendFailed', { reason: reason.slice(0, 300) }, { cause: err });
    }
  }

  #mailSettings(s: EffectiveSettings): MailSettings {
    return {
      provider: String(s['panel.email.provider']),
      from: String(s['panel.email.from']),
      domain: String(s['panel.email.domain']),
      key: String(s['panel.email.key']),
      host: String(s['panel.email.host']),
      username: String(s['panel.email.username']),
      password: String(s['panel.email.password']),
      mailgunBaseUrl: this.config.email.mailgunBaseUrl,
      mailjetBaseUrl: this.config.email.mailjetBaseUrl,
    };
  }

  #masterUrl(s: EffectiveSettings): string {
    return String(s['panel.settings.masterUrl'] || `http://localhost:${this.config.web.port}`).replace(
      /\/+$/,
      '',
    );
  }

  /** The public base URL for links in mails. */
  async masterUrl(): Promise<string> {
    return this.#masterUrl(await this.settings.effective());
  }
}
