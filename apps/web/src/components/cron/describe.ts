/**
 * A schedule in words (cronstrue), in the interface language: zh_TW and zh_HK → zh_TW, zh_CN →
 * zh_CN, otherwise the language prefix (`de_DE` → `de`), falling back to en when cronstrue lacks it.
 */
import cronstrue from 'cronstrue/i18n';

const cronstrueLocales = new Set(
  (
    'af ar az be bg ca cs da de en es fa fi fr he hr hu id it ja ko my nb nl nn pl pt_BR pt_PT ro ru sk sl sr sv ' +
    'sw tg th tr uk vi zh_CN zh_TW'
  ).split(' '),
);

export function cronLocaleOf(language: string | undefined): string {
  const code = (language ?? '').replace('-', '_');
  if (code === 'zh_TW' || code === 'zh_HK') return 'zh_TW';
  if (code === 'zh_CN') return 'zh_CN';
  const prefix = code.split('_')[0] ?? '';
  return cronstrueLocales.has(prefix) ? prefix : 'en';
}

/** Null for a blank or unreadable expression. */
export function describeCron(
  expression: string | null | undefined,
  language: string | undefined,
): string | null {
  const text = (expression ?? '').trim();
  if (!text) return null;
  try {
    return cronstrue.toString(text, { locale: cronLocaleOf(language), use24HourTimeFormat: true });
  } catch {
    return null; // cronstrue throws on what it cannot read; the editor shows its own validity message
  }
}
