/**
 * Ids the host already uses: accounts and groups (never handed to a server) and subordinate id ranges of user
 * namespaces (reported at start when they overlap the server range, docs/configuration.md `isolation.*`).
 */
import { readFileSync } from 'node:fs';
import type { IdRange } from './ids';

function readLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n');
  } catch {
    return []; // absent on a minimal system: nothing taken
  }
}

/** Numeric ids of /etc/passwd and /etc/group entries (third field of each line). */
export function accountIds(files = ['/etc/passwd', '/etc/group']): Set<number> {
  const ids = new Set<number>();
  for (const file of files) {
    for (const line of readLines(file)) {
      const id = Number(line.split(':')[2]);
      if (line.trim() !== '' && Number.isInteger(id)) ids.add(id);
    }
  }
  return ids;
}

/** `owner:start:count` lines of /etc/subuid and /etc/subgid that overlap `range`, as readable text. */
export function subordinateOverlaps(range: IdRange, files = ['/etc/subuid', '/etc/subgid']): string[] {
  const found: string[] = [];
  for (const file of files) {
    for (const line of readLines(file)) {
      const [owner, start, count] = line.split(':');
      const first = Number(start);
      const last = first + Number(count) - 1;
      if (!owner || !Number.isInteger(first) || !Number.isInteger(last)) continue;
      if (first <= range.idRangeEnd && last >= range.idRangeStart) found.push(`${file} ${line.trim()}`);
    }
  }
  return found;
}
