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

/** Files and bytes a restore of `paths` (all: `['']`) writes, for its progress. */
export async function restoreSize(
  repo: Repository,
  snapshotId: string,
  paths: readonly string[],
): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  // Summed as restic lists them: a snapshot of millions of files is never held in memory.
  for (const path of paths) {
    await eachNode(repo, snapshotId, path, true, (node) => {
      if (node.type !== 'file') return;
      files += 1;
      bytes += node.size ?? 0;
    });
  }
  return { files, bytes };
}
