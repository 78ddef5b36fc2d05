/**
 * The destination form: every type's fields as text, filled from the node's answer (secrets are never
 * answered: their fields start empty, and an empty secret is left out of the body so the node keeps its
 * stored value; docs/backups.md § Destinations).
 */
import type {
  BackupDestinationInput,
  BackupDestinationType,
  BackupDestinationView,
} from '@hearth/contract/backups';

export const FIELDS: Record<BackupDestinationType, readonly string[]> = {
  local: ['path'],
  sftp: ['host', 'port', 'user', 'path', 'hostKey', 'privateKey'],
  s3: ['endpoint', 'bucket', 'prefix', 'region', 'accessKeyId', 'secretAccessKey', 'caCert'],
  rest: ['url', 'username', 'password', 'caCert'],
};
export const SECRETS = new Set(['privateKey', 'secretAccessKey', 'password']);
/** Shown as several lines. */
export const MULTILINE = new Set(['privateKey', 'caCert']);

export interface DestinationForm {
  type: BackupDestinationType;
  values: Record<string, string>;
}

export function destinationForm(view: BackupDestinationView): DestinationForm {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(view.settings)) values[key] = String(value);
  return { type: view.type, values };
}

export function destinationBody(form: DestinationForm): BackupDestinationInput {
  const body: Record<string, string | number> = { type: form.type };
  for (const field of FIELDS[form.type]) {
    const value = (form.values[field] ?? '').trim();
    if (value === '' && (SECRETS.has(field) || field === 'caCert' || field === 'port')) continue;
    body[field] = field === 'port' ? Number(value) : value;
  }
  return body as unknown as BackupDestinationInput;
}
