import { describe, expect, it } from 'vitest';
import { flagOf, localeCodes, locales } from '../src/i18n/locales';
import { matchBrowserLanguage, resolveLocale } from '../src/i18n/resolve';

describe('locale list', () => {
  it('has the 35 interface locales, each with a name and a flag', () => {
    expect(localeCodes).toHaveLength(35);
    expect(localeCodes).toEqual(
      expect.arrayContaining(['en_US', 'de_DE', 'ar_SA', 'es_419', 'sr_SP', 'zh_HK']),
    );
    for (const locale of locales) {
      expect(locale.name.length).toBeGreaterThan(1);
      expect([...locale.flag]).toHaveLength(2);
    }
  });

  it('maps regions that are not countries to the expected flag', () => {
    expect(flagOf('de_DE')).toBe('🇩🇪');
    expect(flagOf('sr_SP')).toBe('🇷🇸');
    expect(flagOf('es_419')).toBe('🇲🇽');
  });
});

describe('resolveLocale (storage, then browser, then en_US)', () => {
  it('prefers a known stored locale', () => {
    expect(resolveLocale('fr_FR', ['de-DE'])).toBe('fr_FR');
  });

  it('ignores an unknown stored value and uses the browser language', () => {
    expect(resolveLocale('xx_XX', ['de-DE'])).toBe('de_DE');
    expect(resolveLocale(null, ['it'])).toBe('it_IT');
  });

  it('walks the browser languages in order and falls back to en_US', () => {
    expect(resolveLocale(null, ['tlh', 'sv-FI'])).toBe('sv_SE');
    expect(resolveLocale(null, ['tlh'])).toBe('en_US');
    expect(resolveLocale(undefined, [])).toBe('en_US');
  });

  it('handles regional and script variants', () => {
    expect(matchBrowserLanguage('en-GB')).toBe('en_US');
    expect(matchBrowserLanguage('pt-BR')).toBe('pt_BR');
    expect(matchBrowserLanguage('pt-PT')).toBe('pt_PT');
    expect(matchBrowserLanguage('es')).toBe('es_ES');
    expect(matchBrowserLanguage('es-AR')).toBe('es_419');
    expect(matchBrowserLanguage('es-419')).toBe('es_419');
    expect(matchBrowserLanguage('zh')).toBe('zh_CN');
    expect(matchBrowserLanguage('zh-Hant')).toBe('zh_TW');
    expect(matchBrowserLanguage('zh-Hant-HK')).toBe('zh_HK');
    expect(matchBrowserLanguage('nb-NO')).toBe('no_NO');
  });
});
