/** The 35 locales of the interface. `en_US` is the reference wording and the fallback. */
export const DEFAULT_LOCALE = 'en_US';

export interface LocaleInfo {
  code: string;
  /** The language's own name, as shown in the language selector. */
  name: string;
  /** Regional-indicator flag emoji. */
  flag: string;
}

const names: Record<string, string> = {
  ar_SA: 'العربية',
  cs_CZ: 'Čeština',
  da_DK: 'Dansk',
  de_DE: 'Deutsch',
  el_GR: 'Ελληνικά',
  en_US: 'English',
  es_419: 'Español (Latinoamérica)',
  es_ES: 'Español (España)',
  et_EE: 'Eesti',
  fi_FI: 'Suomi',
  fr_FR: 'Français',
  he_IL: 'עברית',
  hi_IN: 'हिन्दी',
  hu_HU: 'Magyar',
  id_ID: 'Bahasa Indonesia',
  it_IT: 'Italiano',
  ja_JP: '日本語',
  ko_KR: '한국어',
  lt_LT: 'Lietuvių',
  nl_NL: 'Nederlands',
  no_NO: 'Norsk',
  pl_PL: 'Polski',
  pt_BR: 'Português (Brasil)',
  pt_PT: 'Português (Portugal)',
  ro_RO: 'Română',
  ru_RU: 'Русский',
  sk_SK: 'Slovenčina',
  sr_SP: 'Српски',
  sv_SE: 'Svenska',
  tr_TR: 'Türkçe',
  uk_UA: 'Українська',
  vi_VN: 'Tiếng Việt',
  zh_CN: '简体中文',
  zh_HK: '繁體中文（香港）',
  zh_TW: '繁體中文（台灣）',
};

/** Region codes that are not ISO 3166 countries get the flag people expect. */
const flagRegion: Record<string, string> = { es_419: 'MX', sr_SP: 'RS' };

export function flagOf(code: string): string {
  const region = flagRegion[code] ?? code.split('_')[1] ?? '';
  if (!/^[A-Z]{2}$/.test(region)) return '🏳️';
  return String.fromCodePoint(...[...region].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

export const locales: LocaleInfo[] = Object.entries(names).map(([code, name]) => ({
  code,
  name,
  flag: flagOf(code),
}));

export const localeCodes = locales.map((l) => l.code);

export const RTL_LOCALES = new Set(['ar_SA', 'he_IL']);

export const HELP_TRANSLATE_URL = 'https://github.com/hearth-panel/hearth/blob/main/docs/i18n.md';
