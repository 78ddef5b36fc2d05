/**
 * A server's snapshots, and THE resolution of a backup id (docs/backups.md § Isolation): every id a caller gives
 * is looked up among the snapshots tagged with this server only, so another server's snapshot — or an id
 * matching several — is simply not found (404). Listings run with --no-lock (read-only).
 */
import { AppError, type Backup } from '@hearth/contract';
import type { Repository } from './repository';
import type { ServerBackupState } from './state-store';

export interface Snapshot {
  id: string;
  short_id: string;
  time: string;
  hostname: string;
  tags?: string[];
}

export const SERVER_TAG = 'hearth-server:';
export const serverTag = (serverId: string) => `${SERVER_TAG}${serverId}`;

/** A tag value restic keeps whole: no commas (restic splits on them), no spaces. */
export function tagValue(value: string): string {
  return value.replace(/[^A-Za-z0-9._@:-]/g, '_').slice(0, 128);
}

function isSnapshot(value: unknown): value is Snapshot {
  const s = value as Partial<Snapshot> | null;
  return typeof s?.id === 'string' && typeof s.time === 'string';
}

/** This server's snapshots, newest first; only those carrying exactly its tag. */
export async function listSnapshots(repo: Repository, serverId: string): Promise<Snapshot[]> {
  const raw = await repo.json('read', ['snapshots', '--json', '--no-lock', '--tag', serverTag(serverId)]);
  const list = Array.isArray(raw) ? raw.filter(isSnapshot) : [];
  return list.filter((s) => ofServer(s, serverId)).sort((a, b) => Date.parse(b.time) - Date.parse(a.time));
}

const ofServer = (s: Snapshot, serverId: string) => (s.tags ?? []).includes(serverTag(serverId));

/**
 * The snapshot a backup of this server has just written, from the short id in `restic backup --json`'s summary
 * (restic 0.14 prints only the short one): one lookup by id, which reads that snapshot alone instead of every
 * snapshot of the repository, its server tag checked as in listSnapshots. A short id that restic finds ambiguous
 * (it then lists nothing) falls back to the server's listing.
 */
export async function snapshotOfBackup(
  repo: Repository,
  serverId: string,
  shortId: string,
): Promise<Snapshot | undefined> {
  const raw = await repo.json('read', ['snapshots', '--json', '--no-lock', shortId]);
  const found = (Array.isArray(raw) ? raw.filter(isSnapshot) : []).filter(
    (s) => s.id.startsWith(shortId) && ofServer(s, serverId),
  );
  if (found.length === 1) return found[0];
  return (await listSnapshots(repo, serverId)).find((s) => s.id.startsWith(shortId));
}

/**
 * A snapshot id for a restore, first from the node's own record of this server's backups (state-store.ts: a
 * record is written only for a snapshot this daemon took of this server, so the isolation above holds) — a full
 * id found there needs no restic run; anything else is resolved among the server's snapshots. A record whose
 * snapshot was removed outside Hearth makes restic answer "no matching ID", catalogued as ErrBackupNotFound.
 */
export async function resolveSnapshotId(
  repo: Repository,
  state: ServerBackupState,
  serverId: string,
  backupId: string,
): Promise<string> {
  if (/^[0-9a-f]{64}$/.test(backupId) && state.records[backupId]) return backupId;
  return (await resolveSnapshot(repo, serverId, backupId)).id;
}

/** The one snapshot of this server the id names (full id or a prefix of at least 8); else ErrBackupNotFound. */
export async function resolveSnapshot(
  repo: Repository,
  serverId: string,
  backupId: string,
): Promise<Snapshot> {
  const matches = (await listSnapshots(repo, serverId)).filter((s) => s.id.startsWith(backupId));
  const [only] = matches;
  if (!only || matches.length > 1) throw new AppError('ErrBackupNotFound');
  return only;
}

function tagOf(snapshot: Snapshot, prefix: string): string | null {
  const tag = (snapshot.tags ?? []).find((t) => t.startsWith(prefix));
  return tag === undefined ? null : tag.slice(prefix.length);
}

export function toBackup(snapshot: Snapshot, state: ServerBackupState): Backup {
  const trigger = tagOf(snapshot, 'hearth-trigger:');
  const record = state.records[snapshot.id];
  return {
    id: snapshot.id,
    shortId: snapshot.short_id,
    time: Date.parse(snapshot.time),
    trigger: trigger === 'task' || trigger === 'schedule' ? trigger : 'manual',
    by: tagOf(snapshot, 'hearth-by:'),
    locked: state.locked.includes(snapshot.id),
    asIs: (snapshot.tags ?? []).includes('hearth-as-is'),
    sizeAdded: record?.sizeAdded ?? null,
    totalSize: record?.totalSize ?? null,
    fileCount: record?.fileCount ?? null,
  };
}
