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
  return list
    .filter((s) => (s.tags ?? []).includes(serverTag(serverId)))
    .sort((a, b) => Date.parse(b.time) - Date.parse(a.time));
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
