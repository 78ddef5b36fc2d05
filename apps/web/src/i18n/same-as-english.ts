/**
 * Values a translation may leave identical to the English source. The locale checks
 * (apps/web/test/i18n-locales.test.ts) and the browser walk (e2e/i18n-walk.test.ts) fail on any other
 * value or visible text that equals its English string. Policy (docs/i18n.md): only names, technical
 * tokens, and words the target language really uses unchanged — never an untranslated sentence.
 */

/** Identical in every language: product and service names, protocols, units and technical tokens. */
export const sameEverywhere: readonly string[] = [
  'Hearth',
  'CPU',
  'JSON',
  'TTY',
  'Docker',
  'SMTP',
  'SFTP',
  'OAuth2',
  'Mailgun',
  'Mailjet',
  'MiB',
  'MB',
  'ID',
  'cron',
  '1.x', // the template format version badge
];

/** Genuine loanwords or cognates spelled like English, per locale. */
export const sameInLocale: Readonly<Record<string, readonly string[]>> = {
  // Czech/Slovak: server, text, editor, panel and e-mail are the native terms.
  cs_CZ: ['Server', 'Text', 'Editor', 'Panel', 'E-mail'],
  sk_SK: ['Server', 'Text', 'Editor', 'Panel', 'E-mail'],
  // Danish/Norwegian/Swedish share these spellings (status, type, start, signal, standard…); DAEMON is
  // the console line tag, which Nordic admins read as the Unix term.
  da_DK: [
    'Status',
    'Node',
    'Server',
    'Type',
    'DAEMON',
    'Online',
    'Offline',
    'Terminal (TTY)',
    'Start',
    'Stop',
    'Definition',
    'Start server',
    'Stop server',
    'Upload',
    'Download',
    'Send invitation',
    'Editor',
    'Version',
    'Signal',
    'Standard',
    'Image',
    'Panel',
    'E-mail',
    'Administrator',
  ],
  no_NO: [
    'Status',
    'Node',
    'Server',
    'Type',
    'DAEMON',
    'Terminal (TTY)',
    'Start',
    'Signal',
    'Standard',
    'Panel',
    'Administrator',
  ],
  sv_SE: [
    'Status',
    'Server',
    'DAEMON',
    'Online',
    'Offline',
    'Terminal (TTY)',
    'Definition',
    'Text',
    'Version',
    'Signal',
    'Standard',
    'Panel',
  ],
  // German nouns identical to English: Details, Status, Name, Text, Version, Signal, Standard, Image…
  de_DE: [
    'Details',
    'Status',
    'Server',
    'DAEMON',
    'Host',
    'Online',
    'Offline',
    'Terminal (TTY)',
    'Definition',
    'Name',
    'Text',
    'Editor',
    'Version',
    'Signal',
    'Standard',
    'Image',
    'Panel',
    'Domain',
    'Administrator',
  ],
  // Dutch uses server(s), node(s), account, status, console and provider as everyday IT words.
  nl_NL: [
    'Account',
    'Servers',
    'Nodes',
    'Details',
    'Status',
    'Node',
    'Server',
    'Later',
    'Type',
    'Console',
    'DAEMON',
    'Host',
    'Online',
    'Offline',
    'Terminal (TTY)',
    'processors',
    'Editor',
    'Image',
    'E-mail',
    'Provider',
  ],
  // Romance languages: same spelling, native words (variables, général, local, console…).
  es_419: ['Variables', 'Host', 'Terminal (TTY)', 'Editor', 'General', 'Local', 'Panel'],
  es_ES: ['Variables', 'Host', 'Terminal (TTY)', 'Editor', 'General', 'Local', 'Panel'],
  fr_FR: [
    'Variables',
    'Type',
    'Console',
    'Terminal (TTY)',
    'conditions',
    'Description',
    'Options',
    'Source',
    'Version',
    'Arguments',
    'Signal',
    'Standard',
    'Image',
    'Local',
    'Configuration (node.json)',
    'E-mail',
  ],
  it_IT: ['Account', 'Server', 'Console', 'Host', 'Editor', 'File', 'Standard', 'E-mail', 'Password'],
  pt_BR: ['Status', 'Console', 'Host', 'Terminal (TTY)', 'Editor', 'Local', 'E-mail'],
  pt_PT: ['Terminal (TTY)', 'Editor', 'Local', 'E-mail'],
  ro_RO: ['Server', 'Terminal (TTY)', 'Text', 'Editor', 'Local', 'E-mail', 'Administrator'],
  // Estonian: server and host are the usual terms; Finnish admins keep the Unix DAEMON tag.
  et_EE: ['Server', 'Host', 'Terminal (TTY)'],
  fi_FI: ['DAEMON'],
  hu_HU: ['Panel', 'E-mail'],
  id_ID: ['Status', 'Server', 'Panel', 'Domain', 'Administrator'],
  pl_PL: ['Host', 'Terminal (TTY)', 'Panel', 'E-mail', 'Administrator'],
  tr_TR: ['Panel'],
};

/** Whether `value` may stay identical to English in `locale`. */
export function mayMatchEnglish(locale: string, value: string): boolean {
  const text = value.trim();
  return sameEverywhere.includes(text) || (sameInLocale[locale]?.includes(text) ?? false);
}
