import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fieldName, labelledMetadata } from '../src/api/field-names';
import { flatten } from './helpers/i18n-files';

const locales = join(import.meta.dirname, '../src/i18n/locales');
const translator = (code: string) => {
  const strings = flatten(JSON.parse(readFileSync(join(locales, `${code}.json`), 'utf8')));
  return (key: string) => strings[key] ?? key;
};

describe('validation messages name fields by their labels (issue 16 item 19)', () => {
  it('names a settings key by the label the settings form shows', () => {
    expect(fieldName('panel.email.from', translator('en_US'))).toBe('Sender address');
    expect(fieldName('panel.email.from', translator('de_DE'))).toBe('Absenderadresse');
    expect(fieldName('publicHost', translator('en_US'))).toBe('Public host');
  });

  it('names generic fields, also nested ones, and keeps an unknown key as it is', () => {
    expect(fieldName('email', translator('fr_FR'))).toBe(translator('fr_FR')('fields.email'));
    expect(fieldName('user.password', translator('en_US'))).toBe('Password');
    expect(fieldName('condition.minutes', translator('en_US'))).toBe('condition.minutes');
  });

  it('labels field and other, and leaves the remaining metadata alone', () => {
    const t = translator('en_US');
    expect(labelledMetadata({ field: 'newPassword', other: 'currentPassword', min: 8 }, t)).toEqual({
      field: 'New password',
      other: 'Current password',
      min: 8,
    });
  });
});
