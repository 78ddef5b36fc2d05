import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_LOCALE, type LocaleCode } from '@hearth/contract/locales';
import { shippedPath } from '@hearth/contract/shipped-files';

const message = z.strictObject({ subject: z.string().min(1), body: z.array(z.string().min(1)).min(1) });

/** One locale's e-mail texts (`locales/<code>.json`); `{name}` marks a placeholder. */
export const mailCatalogueSchema = z.strictObject({
  notYou: z.string().min(1),
  invitation: message,
  accountCreated: message,
  emailChanged: message,
  passwordChanged: message,
  otpEnabled: message,
  otpDisabled: message,
  oauthCreated: message,
  passwordReset: message,
  test: message,
});
export type MailCatalogue = z.infer<typeof mailCatalogueSchema>;

const cache = new Map<LocaleCode, MailCatalogue>();

export function loadCatalogue(locale: LocaleCode): MailCatalogue {
  const file = join(shippedPath('mailLocales'), `${locale}.json`);
  return mailCatalogueSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** Read once per locale on first use; a missing or broken file falls back to English (and is logged by the caller's catch). */
export function catalogueFor(locale: LocaleCode): MailCatalogue {
  let catalogue = cache.get(locale);
  if (!catalogue) {
    catalogue = locale === DEFAULT_LOCALE ? loadCatalogue(locale) : loadOrEnglish(locale);
    cache.set(locale, catalogue);
  }
  return catalogue;
}

function loadOrEnglish(locale: LocaleCode): MailCatalogue {
  try {
    return loadCatalogue(locale);
  } catch (err) {
    // A broken catalogue must not stop security notices; the completeness test catches it before release.
    console.warn(`e-mail catalogue ${locale} unusable, sending English`, err);
    return catalogueFor(DEFAULT_LOCALE);
  }
}
