import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import enUS from './locales/en_US.json';
import { DEFAULT_LOCALE, RTL_LOCALES } from './locales';
import { catalogueStrings, daemonMessageStrings } from './placeholders';
import { LOCALE_STORAGE_KEY, resolveLocale } from './resolve';

// Only the chosen locale is downloaded; en_US is bundled because it is the fallback for every key.
const lazyLocales = import.meta.glob<ResourceKey>(['./locales/*.json', '!./locales/en_US.json'], {
  import: 'default',
});

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = lazyLocales[`./locales/${language}.json`];
    if (!load) {
      // A locale without a file yet: every key falls back to en_US.
      callback(null, {});
      return;
    }
    load().then(
      (data) => callback(null, data),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
    );
  },
};

/** en_US: the reference strings plus the error and daemon message texts generated from the contract. */
export function englishResource(): ResourceKey {
  return { ...enUS, errors: catalogueStrings(), daemonMessages: daemonMessageStrings() };
}

export function initialLocale(): string {
  return resolveLocale(localStorage.getItem(LOCALE_STORAGE_KEY), navigator.languages);
}

function applyDocumentLocale(locale: string): void {
  document.documentElement.lang = locale.replace('_', '-');
  document.documentElement.dir = RTL_LOCALES.has(locale) ? 'rtl' : 'ltr';
}

export async function initI18n(): Promise<typeof i18next> {
  const lng = initialLocale();
  await i18next
    .use(lazyBackend)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: DEFAULT_LOCALE,
      load: 'currentOnly',
      partialBundledLanguages: true,
      resources: { [DEFAULT_LOCALE]: { translation: englishResource() } },
      interpolation: { escapeValue: false }, // React escapes
      returnNull: false,
    });
  applyDocumentLocale(lng);
  i18next.on('languageChanged', applyDocumentLocale);
  return i18next;
}

export async function changeLocale(locale: string): Promise<void> {
  localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  await i18next.changeLanguage(locale);
}
