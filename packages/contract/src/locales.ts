import { z } from 'zod';

/** The 35 locales of the interface and the e-mails. `en_US` is the reference and last fallback. */
export const localeCodes = [
  'ar_SA',
  'cs_CZ',
  'da_DK',
  'de_DE',
  'el_GR',
  'en_US',
  'es_419',
  'es_ES',
  'et_EE',
  'fi_FI',
  'fr_FR',
  'he_IL',
  'hi_IN',
  'hu_HU',
  'id_ID',
  'it_IT',
  'ja_JP',
  'ko_KR',
  'lt_LT',
  'nl_NL',
  'no_NO',
  'pl_PL',
  'pt_BR',
  'pt_PT',
  'ro_RO',
  'ru_RU',
  'sk_SK',
  'sr_SP',
  'sv_SE',
  'tr_TR',
  'uk_UA',
  'vi_VN',
  'zh_CN',
  'zh_HK',
  'zh_TW',
] as const;

export type LocaleCode = (typeof localeCodes)[number];
export const DEFAULT_LOCALE: LocaleCode = 'en_US';
export const rtlLocales: readonly LocaleCode[] = ['ar_SA', 'he_IL'];

export function isLocaleCode(value: unknown): value is LocaleCode {
  return typeof value === 'string' && (localeCodes as readonly string[]).includes(value);
}

/** A locale code on the wire; anything else is `ErrFieldInvalid` (the list is too long to echo back). */
export const localeCodeSchema = z.string().refine(isLocaleCode, { params: { code: 'ErrFieldInvalid' } });

/** BCP 47 tag for `lang` attributes: `de_DE` → `de`, but regional variants keep their region. */
export function htmlLang(code: LocaleCode): string {
  const distinct: Partial<Record<LocaleCode, string>> = {
    es_419: 'es-419',
    pt_BR: 'pt-BR',
    pt_PT: 'pt-PT',
    zh_CN: 'zh-Hans-CN',
    zh_HK: 'zh-Hant-HK',
    zh_TW: 'zh-Hant-TW',
    sr_SP: 'sr-Cyrl',
    no_NO: 'nb',
  };
  return distinct[code] ?? code.split('_')[0] ?? 'en';
}
