import i18next from 'i18next';
import { useTranslation } from 'react-i18next';

/**
 * Every date, time, number and byte size the interface shows goes through here, formatted by Intl in the
 * current locale: `de_DE` writes `1,5 MiB` and `01.01.2026, 14:05`, `ar_SA` uses Arabic digits.
 * Functions take our locale code (`pt_BR`) or a BCP 47 tag (`pt-BR`); omitted, the current i18next language.
 */

/** `pt_BR` → `pt-BR`; Intl falls back by itself for tags it only partly knows (`sr-SP` → Serbian). */
export function intlLocale(code: string = i18next.language || 'en_US'): string {
  return code.replace(/_/g, '-');
}

export function formatNumber(value: number, locale?: string, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(intlLocale(locale), options).format(value);
}

/** `0.425` → `42.5%` (`42,5 %` in French). */
export function formatPercent(fraction: number, locale?: string): string {
  return formatNumber(fraction, locale, { style: 'percent', maximumFractionDigits: 1 });
}

// IEC symbols are international (ISO/IEC 80000-13); only the number is localised.
const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** `1536` → `1.5 KiB`; bytes without decimals, two under 10 units, else one. */
export function formatBytes(bytes: number, locale?: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : value < 10 ? 2 : 1;
  return `${formatNumber(value, locale, { maximumFractionDigits: digits })} ${BINARY_UNITS[unit]}`;
}

type When = Date | number | string;
const toDate = (when: When) => (when instanceof Date ? when : new Date(when));

/** Date and time, medium date + short time: `Jan 5, 2026, 2:05 PM` / `05.01.2026, 14:05`. */
export function formatDateTime(when: When, locale?: string): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'medium', timeStyle: 'short' }).format(
    toDate(when),
  );
}

export function formatDate(when: When, locale?: string): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'medium' }).format(toDate(when));
}

/** Clock time with seconds (chart axes, console stamps). */
export function formatTime(when: When, locale?: string): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { timeStyle: 'medium' }).format(toDate(when));
}

/** The formatters bound to the language the component renders in (re-renders on a language change). */
export function useFormat() {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  return {
    locale: intlLocale(locale),
    number: (value: number, options?: Intl.NumberFormatOptions) => formatNumber(value, locale, options),
    percent: (fraction: number) => formatPercent(fraction, locale),
    bytes: (bytes: number) => formatBytes(bytes, locale),
    dateTime: (when: When) => formatDateTime(when, locale),
    date: (when: When) => formatDate(when, locale),
    time: (when: When) => formatTime(when, locale),
  };
}
