import { DEFAULT_LOCALE, localeCodes } from './locales';

export const LOCALE_STORAGE_KEY = 'locale';

/** Maps a BCP 47 tag (`de-AT`, `zh-Hant-TW`, `pt`) to one of our locale codes, or undefined. */
export function matchBrowserLanguage(tag: string): string | undefined {
  const parts = tag.replace(/_/g, '-').split('-');
  const lang = parts[0]?.toLowerCase() ?? '';
  const region = parts.find((p, i) => i > 0 && /^([A-Za-z]{2}|\d{3})$/.test(p))?.toUpperCase();
  if (region) {
    const exact = localeCodes.find((c) => c === `${lang}_${region}`);
    if (exact) return exact;
  }
  if (lang === 'zh') return /hant|tw|hk|mo/i.test(tag) ? (/hk|mo/i.test(tag) ? 'zh_HK' : 'zh_TW') : 'zh_CN';
  if (lang === 'nb' || lang === 'nn') return 'no_NO';
  if (lang === 'en') return DEFAULT_LOCALE;
  if (lang === 'es') return region && region !== 'ES' ? 'es_419' : 'es_ES';
  return localeCodes.find((c) => c.startsWith(`${lang}_`));
}

/** Local storage (key `locale`), else the browser language, else en_US. */
export function resolveLocale(
  stored: string | null | undefined,
  browserLanguages: readonly string[],
): string {
  if (stored && localeCodes.includes(stored)) return stored;
  for (const tag of browserLanguages) {
    const match = matchBrowserLanguage(tag);
    if (match) return match;
  }
  return DEFAULT_LOCALE;
}
