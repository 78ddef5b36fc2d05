#!/usr/bin/env node
// Prints, per locale, the keys missing from it and the stale keys it still has, measured against en_US plus the
// `errors.*` strings generated from the error catalogue (the same rules as apps/web/test/i18n-locales.test.ts).
// Usage: node scripts/i18n-missing.mjs [locale…]   — exits 1 when anything is missing or stale.
import { tsImport } from 'tsx/esm/api';

const files = await tsImport('../apps/web/test/helpers/i18n-files.ts', import.meta.url);
const english = files.readEnglish();
const wanted = process.argv.slice(2);
const codes = wanted.length ? wanted : files.otherLocales;

let problems = 0;
for (const code of codes) {
  const strings = files.readLocale(code);
  const expected = files.expectedKeys(english, code);
  const missing = expected.filter((key) => !(key in strings));
  const stale = Object.keys(strings).filter((key) => !expected.includes(key));
  problems += missing.length + stale.length;
  if (!missing.length && !stale.length) {
    console.log(`${code}: complete`);
    continue;
  }
  console.log(`${code}: ${missing.length} missing, ${stale.length} stale`);
  for (const key of missing)
    console.log(`  + ${key}  (en: ${JSON.stringify(files.englishSourceOf(english, key))})`);
  for (const key of stale) console.log(`  - ${key}`);
}
process.exit(problems ? 1 : 0);
