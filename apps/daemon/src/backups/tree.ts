/**
 * Reading inside a snapshot (docs/backups.md § Browse): a folder's entries (`restic ls`, the folder and its
 * children), whether a path exists, and the size of what a restore will write. Paths are relative to the
 * server folder (backupPathSchema refused `..` already); restic sees them from the snapshot's root, `/`.
 */
import { AppError, type BackupTree, type BackupTreeEntry } from '@hearth/contract';
import type { Repository } from './repository';

interface Node {
  name?: string;
  type?: string;
  path?: string;
  size?: number;
  mtime?: string;
  struct_type?: string;
}

const inSnapshot = (path: string) => `/${path}`;

/** Calls `visit` for each node restic lists under `path` (the path's own node and its children, or all below). */
async function eachNode(
  repo: Repository,
  snapshotId: string,
  path: string,
  recursive: boolean,
  visit: (node: Node) => void,
): Promise<void> {
  const args = [
    'ls',
    '--json',
    '--no-lock',
    ...(recursive ? ['--recursive'] : []),
    snapshotId,
    inSnapshot(path),
  ];
  await repo.run('read', args, {
    onJson: (message) => {
      if (message.struct_type === 'node') visit(message);
    },
  });
}

/** A folder's own node and its children (one level: bounded by the folder, not the snapshot). */
async function nodesUnder(repo: Repository, snapshotId: string, path: string): Promise<Node[]> {
  const nodes: Node[] = [];
  await eachNode(repo, snapshotId, path, false, (node) => nodes.push(node));
  return nodes;
}

function entryOf(node: Node): BackupTreeEntry {
  const type = node.type === 'file' || node.type === 'dir' || node.type === 'symlink' ? node.type : 'other';
  return {
    name: node.name ?? '',
    path: (node.path ?? '').replace(/^\/+/, ''),
    type,
    size: node.size ?? 0,
    mtime: node.mtime ? Date.parse(node.mtime) : 0,
  };
}

/** A folder's entries (or a file's own entry); a path the snapshot lacks is ErrBackupPathNotFound. */
export async function readTree(repo: Repository, snapshotId: string, path: string): Promise<BackupTree> {
  const nodes = await nodesUnder(repo, snapshotId, path);
  const self = nodes.find((n) => n.path === inSnapshot(path));
  if (path !== '' && !self) throw new AppError('ErrBackupPathNotFound', { path });
  const children = nodes.filter((n) => n.path !== inSnapshot(path));
  const entries = self && self.type !== 'dir' ? [entryOf(self)] : children.map(entryOf);
  entries.sort((a, b) =>
    (a.type === 'dir') !== (b.type === 'dir') ? (a.type === 'dir' ? -1 : 1) : a.name.localeCompare(b.name),
  );
  return { path, entries };
}

/** The entry at `path` (ErrBackupPathNotFound when missing). */
export async function entryAt(repo: Repository, snapshotId: string, path: string): Promise<BackupTreeEntry> {
  const nodes = await nodesUnder(repo, snapshotId, path);
  const self = nodes.find((n) => n.path === inSnapshot(path));
  if (!self) throw new AppError('ErrBackupPathNotFound', { path });
  return entryOf(self);
}

/**
 * What a restore of `paths` (all: `['']`) writes, from ONE recursive listing of every chosen path (not one per
 * path plus one to sum; docs/performance.md § Backups): each chosen path must be in the snapshot
 * (ErrBackupPathNotFound), and the files and bytes under them are summed for the progress as restic lists them —
 * a snapshot of millions of files is never held in memory. restic 0.14 lists nothing, and exits 0, for a snapshot
 * id it does not find: no snapshot line is ErrBackupNotFound.
 */
export async function restorePlan(
  repo: Repository,
  snapshotId: string,
  paths: readonly string[],
  signal?: AbortSignal,
): Promise<{ files: number; bytes: number }> {
  const whole = paths.includes('');
  const wanted = whole ? [inSnapshot('')] : [...new Set(paths.map(inSnapshot))];
  const under = (path: string) => whole || wanted.some((w) => path === w || path.startsWith(`${w}/`));
  const seen = new Set<string>();
  let snapshot = false;
  let files = 0;
  let bytes = 0;
  await repo.run('read', ['ls', '--json', '--no-lock', '--recursive', snapshotId, ...wanted], {
    signal,
    onJson: (message) => {
      if (message.struct_type === 'snapshot') snapshot = true;
      if (message.struct_type !== 'node') return;
      const node = message as Node;
      const path = node.path ?? '';
      if (wanted.includes(path)) seen.add(path);
      if (node.type !== 'file' || !under(path)) return;
      files += 1;
      bytes += node.size ?? 0;
    },
  });
  if (!snapshot) throw new AppError('ErrBackupNotFound');
  for (const path of paths)
    if (path !== '' && !seen.has(inSnapshot(path))) throw new AppError('ErrBackupPathNotFound', { path });
  return { files, bytes };
}
