import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDate,
  formatDateTime,
  formatNumber,
  formatPercent,
  intlLocale,
} from '../src/i18n/format';

// Intl's output differs between ICU versions in spaces (U+202F, U+00A0); compare with plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('i18n/format (Intl in the current locale)', () => {
  it('turns our locale codes into BCP 47 tags', () => {
    expect(intlLocale('pt_BR')).toBe('pt-BR');
    expect(intlLocale('es_419')).toBe('es-419');
    expect(intlLocale('en-US')).toBe('en-US');
  });

  it('writes numbers and percentages the way each language does', () => {
    expect(formatNumber(1234.5, 'en_US')).toBe('1,234.5');
    expect(formatNumber(1234.5, 'de_DE')).toBe('1.234,5');
    expect(plain(formatNumber(1234.5, 'fr_FR'))).toBe('1 234,5');
    expect(formatNumber(12, 'ar_SA')).toBe('١٢');
    expect(formatPercent(0.425, 'en_US')).toBe('42.5%');
    expect(plain(formatPercent(0.425, 'de_DE'))).toBe('42,5 %');
  });

  it('formats byte sizes with IEC units and a localised number', () => {
    expect(formatBytes(0, 'en_US')).toBe('0 B');
    expect(formatBytes(1023, 'en_US')).toBe('1,023 B');
    expect(formatBytes(1536, 'en_US')).toBe('1.5 KiB');
    expect(formatBytes(1536, 'de_DE')).toBe('1,5 KiB');
    expect(formatBytes(20 * 1024 ** 2, 'ru_RU')).toBe('20 MiB');
    expect(formatBytes(123.4 * 1024 ** 3, 'pl_PL')).toBe('123,4 GiB');
  });

  it('formats dates and times per locale', () => {
    const when = Date.UTC(2026, 0, 5, 14, 5);
    // The formatters use the machine's zone; build the expectation with the same zone.
    expect(formatDate(when, 'en_US')).toBe(
      new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(when),
    );
    expect(formatDateTime(when, 'de_DE')).toMatch(/^0?\d\.01\.2026, \d\d:\d\d$/);
    expect(formatDateTime(new Date(when), 'ja_JP')).toMatch(/^2026\/01\/0\d \d+:\d\d$/);
  });
});
