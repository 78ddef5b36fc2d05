import { describe, expect, it } from 'vitest';
import { localeCodes } from '@hearth/contract/locales';
import { loadCatalogue, type MailCatalogue } from '../../src/modules/email/catalogues';
import { mailKinds, renderMail } from '../../src/modules/email/messages';

/** Every string of a catalogue by its path (`invitation.body.1`). */
function flatten(catalogue: MailCatalogue): Map<string, string> {
  const out = new Map<string, string>([['notYou', catalogue.notYou]]);
  for (const kind of mailKinds) {
    out.set(`${kind}.subject`, catalogue[kind].subject);
    catalogue[kind].body.forEach((line, i) => out.set(`${kind}.body.${i}`, line));
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

const english = flatten(loadCatalogue('en_US'));

describe('e-mail catalogues in every locale', () => {
  it.each(localeCodes)('%s has exactly the en_US keys and placeholders', (locale) => {
    const strings = flatten(loadCatalogue(locale));
    expect([...strings.keys()]).toEqual([...english.keys()]);
    for (const [key, text] of strings) {
      expect(placeholders(text), `${locale} ${key}`).toEqual(placeholders(english.get(key) ?? ''));
      if (locale !== 'en_US' && key.endsWith('.subject'))
        expect(text, `${locale} ${key} is translated`).not.toBe(english.get(key));
    }
  });

  it('HTML escapes interpolated values in every locale', () => {
    for (const locale of localeCodes) {
      const mail = renderMail(
        'oauthCreated',
        { companyName: 'A&B', masterUrl: 'https://x', username: '<b>', clientName: '"><script>' },
        locale,
      );
      expect(mail.html, locale).not.toContain('<script>');
      expect(mail.html, locale).not.toContain('<b>');
      expect(mail.html, locale).toContain('A&#38;B');
    }
  });
});
