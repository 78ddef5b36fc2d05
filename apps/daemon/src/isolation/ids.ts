/** The uid/gid a server runs as (docs/security.md "Isolation model"): one number for both, from the configured range. */
export interface ServerIds {
  uid: number;
  gid: number;
}

export interface IdRange {
  idRangeStart: number;
  idRangeEnd: number;
}

export function inRange(id: number, range: IdRange): boolean {
  return Number.isInteger(id) && id >= range.idRangeStart && id <= range.idRangeEnd;
}

/**
 * The ids stored in a definition file (`runAs`), or null when absent or unusable: only ids inside the configured
 * range are ever used, so a hand-edited `{"uid": 0}` can never make a server run as root.
 */
export function storedIds(raw: unknown, range: IdRange): ServerIds | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { uid, gid } = raw as { uid?: unknown; gid?: unknown };
  if (typeof uid !== 'number' || typeof gid !== 'number') return null;
  return inRange(uid, range) && inRange(gid, range) ? { uid, gid } : null;
}
