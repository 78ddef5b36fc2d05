import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LOCALE, localeCodes } from '../../src/i18n/locales';
import { catalogueStrings, daemonMessageStrings } from '../../src/i18n/placeholders';

export const LOCALES_DIR = join(import.meta.dirname, '../../src/i18n/locales');

/** i18next plural suffixes (CLDR categories). */
export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
const pluralSuffix = new RegExp(`_(${PLURAL_CATEGORIES.join('|')})$`);

export type Flat = Record<string, string>;

/** `{a: {b: 'x'}}` → `{'a.b': 'x'}`: the dotted keys `t()` takes. */
export function flatten(tree: unknown, prefix = '', out: Flat = {}): Flat {
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object') flatten(value, path, out);
    else out[path] = String(value);
  }
  return out;
}

export function readLocale(code: string): Flat {
  return flatten(JSON.parse(readFileSync(join(LOCALES_DIR, `${code}.json`), 'utf8')));
}

/** en_US as the app sees it: the file plus `errors.*` and `daemonMessages.*` generated from the contract. */
export function readEnglish(): Flat {
  return {
    ...readLocale(DEFAULT_LOCALE),
    ...flatten({ errors: catalogueStrings(), daemonMessages: daemonMessageStrings() }),
  };
}

export const otherLocales = localeCodes.filter((c) => c !== DEFAULT_LOCALE);

/** The CLDR plural categories a locale needs, as i18next resolves them (Intl.PluralRules). */
export function pluralCategories(code: string): string[] {
  const lang = code.replace('_', '-');
  return [...new Intl.PluralRules(lang).resolvedOptions().pluralCategories].sort();
}

/** `files.entries_other` → `files.entries`; undefined for a key without a plural suffix. */
export function pluralBase(key: string): string | undefined {
  return pluralSuffix.test(key) ? key.replace(pluralSuffix, '') : undefined;
}

/**
 * The keys a locale must have: every English key, with English plural groups (`x_one`, `x_other`)
 * replaced by the forms the locale's language needs (`x_one`, `x_few`, `x_many`, `x_other` in Polish).
 */
export function expectedKeys(english: Flat, code: string): string[] {
  const keys = new Set<string>();
  for (const key of Object.keys(english)) {
    const base = pluralBase(key);
    if (base === undefined) keys.add(key);
    else for (const category of pluralCategories(code)) keys.add(`${base}_${category}`);
  }
  return [...keys].sort();
}

/** The English string a locale key translates (`x_few` translates `x_other`). */
export function englishSourceOf(english: Flat, key: string): string | undefined {
  const base = pluralBase(key);
  return english[key] ?? (base === undefined ? undefined : english[`${base}_other`]);
}
