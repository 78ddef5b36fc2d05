/**
 * The import list's state per template (docs/api.md § Import state): compares what a source offers with the
 * stored template of that id and what its last import recorded. Pure functions; the service feeds them rows.
 */
import { createHash } from 'node:crypto';
import type { ImportableTemplate, ImportState } from '@hearth/contract/templates-api';
import type { TemplateImportRow } from './templates.repository';

/** JSON with object keys sorted, so a definition saved back with its keys in another order hashes the same. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 (hex) of a stored definition's JSON (a row's `definition`), independent of key order. */
export function definitionHash(definitionJson: string): string {
  return createHash('sha256')
    .update(sortedJson(JSON.parse(definitionJson)))
    .digest('hex');
}

/**
 * Compares two `version` fields part by part (`1.10` > `1.9`, `2.0.1` > `2.0`): runs of digits as numbers,
 * anything else as text. Negative when `a` is older.
 */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .trim()
      .replace(/^v/i, '')
      .split(/[.\-+_ ]/);
  const left = parts(a);
  const right = parts(b);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i] ?? '0';
    const y = right[i] ?? '0';
    const diff =
      /^\d+$/.test(x) && /^\d+$/.test(y)
        ? Number(x) - Number(y)
        : x.localeCompare(y, 'en', { numeric: true });
    if (diff !== 0) return diff;
  }
  return 0;
}

export interface Offered {
  source: string;
  /** `definitionHash` of the definition an import would store. */
  hash: string;
  version: string | undefined;
}

/** The stored template of that id, if any: its definition's hash. */
export interface Stored {
  hash: string;
}

type StateFields = Pick<ImportableTemplate, 'state' | 'imported'>;

/** The state of one offered template, given what is stored under its id and what its last import recorded. */
export function importStateOf(
  offered: Offered,
  stored: Stored | undefined,
  record: TemplateImportRow | undefined,
): StateFields {
  if (!stored) return { state: 'new' };
  const imported = record && {
    source: record.source,
    at: Number(record.imported_at),
    ...(record.version !== null ? { version: record.version } : {}),
    editedSince: stored.hash !== record.definition_hash,
  };
  // An import from another source says nothing about this one: compare the contents instead.
  if (!record || record.source !== offered.source) {
    return { state: stored.hash === offered.hash ? 'current' : 'differs', imported };
  }
  return { state: stateAgainstImport(offered, record), imported };
}

function stateAgainstImport(offered: Offered, record: TemplateImportRow): ImportState {
  if (offered.version !== undefined && record.version !== null) {
    const order = compareVersions(offered.version, record.version);
    return order > 0 ? 'newer' : order === 0 ? 'current' : 'differs';
  }
  return offered.hash === record.definition_hash ? 'current' : 'newer';
}
