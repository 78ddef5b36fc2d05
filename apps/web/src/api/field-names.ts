/**
 * Validation errors name a field by its wire key (`panel.email.from`, `publicHost`): SPEC's messages read
 * "{field} must be …". On screen the field is named by the label its form shows, in the reader's language
 * (issue 16 item 19); the API answer keeps the key.
 */
import type { ErrorMetadata } from '@hearth/contract';

/** Wire key → the i18n key of the label the form shows for it. */
const LABELS: Record<string, string> = {
  'panel.settings.masterUrl': 'settings.panel.masterUrl',
  'panel.settings.companyName': 'settings.panel.companyName',
  'panel.settings.defaultTheme': 'settings.panel.defaultTheme',
  'panel.registrationEnabled': 'settings.panel.registration',
  'panel.email.provider': 'settings.email.provider',
  'panel.email.from': 'settings.email.from',
  'panel.email.host': 'settings.email.host',
  'panel.email.username': 'settings.email.username',
  'panel.email.password': 'settings.email.password',
  'panel.email.domain': 'settings.email.domain',
  'panel.email.key': 'settings.email.key',
  publicHost: 'nodes.fields.publicHost',
  publicPort: 'nodes.fields.publicPort',
  privateHost: 'nodes.fields.privateHost',
  privatePort: 'nodes.fields.privatePort',
  sftpPort: 'nodes.fields.sftpPort',
  tlsMode: 'nodes.fields.tlsMode',
};

/** Generic form fields (`fields.*`), also matched by the last part of a nested key (`user.email`). */
const GENERIC = [
  'username',
  'email',
  'password',
  'confirmPassword',
  'currentPassword',
  'newPassword',
  'name',
];

export type Translator = (key: string) => string;

/** The label of a field key in the reader's language, or the key itself when no form names it. */
export function fieldName(field: string, t: Translator): string {
  const label = LABELS[field];
  if (label) return t(label);
  const leaf = field.split('.').pop() ?? field;
  return GENERIC.includes(leaf) ? t(`fields.${leaf}`) : field;
}

/** An error's metadata for its message: `field` and `other` (ErrFieldEqual/NotEqual) named by their labels. */
export function labelledMetadata(metadata: ErrorMetadata, t: Translator): ErrorMetadata {
  const out: ErrorMetadata = { ...metadata };
  for (const name of ['field', 'other'] as const) {
    const value = metadata[name];
    if (typeof value === 'string') out[name] = fieldName(value, t);
  }
  return out;
}
