import { errorCodes } from '@hearth/contract';
import { describe, expect, it } from 'vitest';
import { mayMatchEnglish } from '../src/i18n/same-as-english';
import {
  englishSourceOf,
  expectedKeys,
  type Flat,
  otherLocales,
  pluralBase,
  pluralCategories,
  readEnglish,
  readLocale,
} from './helpers/i18n-files';

// The completeness checks of docs/i18n.md: they fail the build when a locale falls behind en_US.
const english = readEnglish();
const locales = new Map<string, Flat>(otherLocales.map((code) => [code, readLocale(code)]));

/** `{{name}}` placeholders and `<tag>`/`</tag>` markup, sorted: a translation must carry the same. */
function tokens(text: string): string[] {
  const placeholders = text.match(/\{\{\s*[\w.]+\s*(,[^}]*)?\}\}/g) ?? [];
  const tags = text.match(/<\/?[a-zA-Z][\w-]*\s*\/?>/g) ?? [];
  // A lone `{x}` (catalogue syntax) would be shown raw by i18next: it must match English literally.
  const single = text.replace(/\{\{[^}]*\}\}/g, '').match(/\{[^{}]*\}/g) ?? [];
  return [...placeholders.map((p) => p.replace(/\s+/g, '')), ...tags, ...single].sort();
}

describe.each(otherLocales)('%s', (code) => {
  const strings = locales.get(code) ?? {};

  it('has every en_US key (with its plural forms) and no stale key', () => {
    const want = expectedKeys(english, code);
    const have = Object.keys(strings).sort();
    expect({
      missing: want.filter((k) => !(k in strings)),
      stale: have.filter((k) => !want.includes(k)),
    }).toEqual({
      missing: [],
      stale: [],
    });
  });

  it('keeps the placeholders and markup of each English string', () => {
    const wrong: string[] = [];
    for (const [key, text] of Object.entries(strings)) {
      const source = englishSourceOf(english, key);
      if (source === undefined) continue;
      // A singular form may spell the number out ("one file"), so {{count}} is optional there.
      const drop = (list: string[]) => (pluralBase(key) ? list.filter((t) => t !== '{{count}}') : list);
      if (drop(tokens(text)).join(' ') !== drop(tokens(source)).join(' ')) wrong.push(`${key}: ${text}`);
    }
    expect(wrong).toEqual([]);
  });

  it('translates every value, except the allowed names and loanwords', () => {
    const same = Object.entries(strings)
      .filter(([key, text]) => text === englishSourceOf(english, key) && !mayMatchEnglish(code, text))
      .map(([key, text]) => `${key}: ${text}`);
    expect(same).toEqual([]);
  });

  it('has a non-empty translation of every error code in the catalogue', () => {
    const untranslated = errorCodes.filter((c) => !strings[`errors.${c}`]?.trim());
    expect(untranslated).toEqual([]);
  });

  it('has exactly the plural forms its language needs', () => {
    const need = pluralCategories(code);
    const groups = new Map<string, string[]>();
    for (const key of Object.keys(strings)) {
      const base = pluralBase(key);
      if (base !== undefined) groups.set(base, [...(groups.get(base) ?? []), key.slice(base.length + 1)]);
    }
    for (const [base, forms] of groups) expect({ base, forms: forms.sort() }).toEqual({ base, forms: need });
  });
});

describe('en_US', () => {
  it('has no empty value and writes plural groups as _one/_other', () => {
    expect(Object.entries(english).filter(([, v]) => !v.trim())).toEqual([]);
    const plural = Object.keys(english).filter((k) => pluralBase(k) !== undefined);
    for (const key of plural) expect(['one', 'other']).toContain(key.slice(key.lastIndexOf('_') + 1));
  });

  it('uses {{count}} only in plural keys (no "Items: {{count}}" workarounds)', () => {
    const counted = Object.entries(english).filter(([k, v]) => v.includes('{{count}}') && !pluralBase(k));
    expect(counted).toEqual([]);
  });
});
