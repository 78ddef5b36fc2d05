import { errorCatalogue, errorCodes } from '@hearth/contract';
import { describe, expect, it } from 'vitest';
import { catalogueStrings, toI18nextPlaceholders } from '../src/i18n/placeholders';

describe('placeholder conversion', () => {
  it('turns catalogue {name} placeholders into i18next {{name}}', () => {
    expect(toI18nextPlaceholders('{field} must be between {min} and {max}')).toBe(
      '{{field}} must be between {{min}} and {{max}}',
    );
    expect(toI18nextPlaceholders("No template with name '{name}' was found")).toBe(
      "No template with name '{{name}}' was found",
    );
    expect(toI18nextPlaceholders('Unknown error')).toBe('Unknown error');
  });
});

describe('en_US error strings', () => {
  const strings = catalogueStrings();

  it('has one string per catalogue code', () => {
    expect(Object.keys(strings).sort()).toEqual([...errorCodes].sort());
  });

  it('keeps the catalogue wording with only the i18next placeholder syntax', () => {
    for (const [code, text] of Object.entries(strings)) {
      expect(text.replace(/\{\{(\w+)\}\}/g, '{$1}')).toBe(
        errorCatalogue[code as keyof typeof errorCatalogue].message,
      );
      expect(text.replace(/\{\{\w+\}\}/g, '')).not.toMatch(/[{}]/);
    }
  });
});
