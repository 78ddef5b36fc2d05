import { readEnglish } from '../../apps/web/test/helpers/i18n-files';

// Pseudo-localisation: every English string accented and 30 % longer, so untranslatable text and layouts
// that only fit English show up in the browser without waiting for a real translation.
const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [
    c,
    [...'áƀçðéƒĝĥíĵķĺɱñóþǫŕšţúṽŵẋýžÁƁÇÐÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŢÚṼŴẊÝŽ'][i] ?? c,
  ]),
);

/** `Delete {{name}}?` → `[Ðéĺéţé {{name}}? ẋẋẋẋẋ]`: placeholders and tags untouched. */
export function pseudoText(text: string): string {
  const parts = text.split(/(\{\{[^}]*\}\}|<[^>]+>)/);
  const accented = parts.map((p, i) => (i % 2 ? p : [...p].map((c) => ACCENTED[c] ?? c).join(''))).join('');
  // 30 % more characters, as words of at most six (real languages break lines between words).
  const extra = Math.max(1, Math.ceil(text.length * 0.3));
  const pad = Array.from({ length: Math.ceil(extra / 6) }, (_, i) =>
    'ẋ'.repeat(Math.min(6, extra - i * 6)),
  ).join(' ');
  return `[${accented} ${pad}]`;
}

/** The pseudo-locale as a nested resource (the shape of a locale file), from en_US + generated errors. */
export function pseudoLocale(): Record<string, unknown> {
  const tree: Record<string, unknown> = {};
  for (const [key, text] of Object.entries(readEnglish())) {
    const path = key.split('.');
    let node = tree;
    for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[path[path.length - 1] ?? key] = pseudoText(text);
  }
  return tree;
}
