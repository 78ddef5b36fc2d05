/**
 * The file manager's pure rules, kept
 * apart from React so they are unit-tested: order, sizes, paths, archive targets, drop filtering, extensions.
 */
import { archiveExtensions, MAX_EDITABLE_FILE_BYTES, type FileEntry } from '@hearth/contract';
import { formatBytes, formatDateTime } from '../../../i18n/format';

export { MAX_EDITABLE_FILE_BYTES };

/** Image extensions: these open in a preview instead of the editor. */
export const imageExtensions = ['.jpeg', '.png', '.jpg', '.gif', '.webp', '.bmp', '.tiff', '.svg'] as const;

const PARENT = '..';

export const isParent = (entry: Pick<FileEntry, 'name'>) => entry.name === PARENT;

/** Parent first, then folders, then files; each by name ignoring case (ties broken by the exact name). */
export function sortEntries(entries: FileEntry[]): FileEntry[] {
  const rank = (e: FileEntry) => (isParent(e) ? 0 : e.isFile ? 2 : 1);
  return [...entries].sort((a, b) => {
    const byKind = rank(a) - rank(b);
    if (byKind !== 0) return byKind;
    const folded = a.name.toLowerCase().localeCompare(b.name.toLowerCase());
    return folded !== 0 ? folded : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}

/** `1536` → `1.5 KiB` in the given or current locale (i18n/format.ts). */
export const formatSize = formatBytes;

/** `modifyTime` is epoch seconds. */
export function formatTime(epochSeconds: number, locale?: string): string {
  return formatDateTime(epochSeconds * 1000, locale);
}

/** Folder paths are relative to the server root, without leading or trailing slashes (`''` is the root). */
export function normalizePath(path: string): string {
  return path
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

export function joinPath(folder: string, name: string): string {
  return normalizePath(`${folder}/${name}`);
}

export function parentPath(path: string): string {
  return normalizePath(path).split('/').slice(0, -1).join('/');
}

export function baseName(path: string): string {
  return normalizePath(path).split('/').at(-1) ?? '';
}

/** The folder an entry click leads to (the parent entry goes up). */
export function entryPath(folder: string, entry: Pick<FileEntry, 'name'>): string {
  return isParent(entry) ? parentPath(folder) : joinPath(folder, entry.name);
}

/** Encodes each segment for the proxy URL, keeping the slashes. */
export function encodePath(path: string): string {
  return normalizePath(path).split('/').map(encodeURIComponent).join('/');
}

const extensionOf = (name: string) => {
  const base = baseName(name).toLowerCase();
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot) : '';
};

export const isArchive = (name: string) =>
  (archiveExtensions as readonly string[]).includes(extensionOf(name));
export const isImage = (name: string) => (imageExtensions as readonly string[]).includes(extensionOf(name));
export const tooLargeToEdit = (size: number) => size > MAX_EDITABLE_FILE_BYTES;

/**
 * Where archiving puts the zip and what goes in (folder name + `.zip`; the daemon adds ` (2)`… when
 * taken). A subfolder's zip lands beside it; the current folder's zip lands in its parent. The root has no
 * name of its own, so its zip is named after `rootName` and holds the root's entries.
 */
export function archiveTarget(
  folder: string,
  subfolder: string | null,
  rootEntries: string[],
  rootName: string,
): { destination: string; sources: string[] } {
  const source = subfolder === null ? normalizePath(folder) : joinPath(folder, subfolder);
  if (source === '') {
    const name = safeFileName(rootName) || 'server';
    return { destination: `${name}.zip`, sources: rootEntries.filter((n) => n !== PARENT) };
  }
  return { destination: joinPath(parentPath(source), `${baseName(source)}.zip`), sources: [source] };
}

function safeFileName(name: string): string {
  return name.replace(/[/\\\0]/g, '_').trim();
}

/** One dropped or picked item: a file, or a folder (which cannot be uploaded). */
export type DroppedItem = { kind: 'file'; file: File } | { kind: 'folder'; name: string };

/**
 * What a drop uploads: folders are refused (the caller shows `Cannot upload folders` once per drop
 * when `folders > 0`), and a name seen twice in one drop is uploaded once.
 */
export function filterDrop(items: DroppedItem[]): { files: File[]; folders: number } {
  const seen = new Set<string>();
  const files: File[] = [];
  let folders = 0;
  for (const item of items) {
    if (item.kind === 'folder') {
      folders += 1;
      continue;
    }
    if (seen.has(item.file.name)) continue;
    seen.add(item.file.name);
    files.push(item.file);
  }
  return { files, folders };
}

/** Upload progress in percent (0–100); unknown totals count as 0 until done. */
export function percentOf(loaded: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.round((loaded / total) * 100));
}

/**
 * Single-key shortcuts (`r`, `u`) must not fire as the tail of a two-key sequence (`r r`, `t u`, `g u`):
 * a key within this window after a sequence prefix belongs to that sequence.
 */
export const SEQUENCE_PREFIXES = ['g', 't', 'r', 'c', 'n'];
export const SEQUENCE_WINDOW_MS = 1000;

export function isSequenceTail(previous: { key: string; at: number } | null, now: number): boolean {
  return (
    previous !== null && SEQUENCE_PREFIXES.includes(previous.key) && now - previous.at < SEQUENCE_WINDOW_MS
  );
}

/**
 * Where "Archive selected" puts the zip: in the folder itself, named after it (the server's name at the root);
 * the daemon adds ` (2)`… when the name is taken.
 */
export function selectionArchive(
  folder: string,
  names: string[],
  rootName: string,
): { destination: string; sources: string[] } {
  const own = baseName(folder) || safeFileName(rootName) || 'server';
  return {
    destination: joinPath(folder, `${own}.zip`),
    sources: names.filter((n) => n !== PARENT).map((n) => joinPath(folder, n)),
  };
}

/**
 * "Upload folder" (`<input webkitdirectory>`): each picked file grouped by the folder it goes to, from its
 * path relative to the picked folder (`webkitRelativePath`, which starts with the picked folder's own name).
 * Folders are listed parents first, so creating them in order never needs a missing parent.
 */
export function folderUpload(
  target: string,
  files: Array<{ file: File; relativePath: string }>,
): Array<{ folder: string; files: File[] }> {
  const groups = new Map<string, File[]>();
  for (const { file, relativePath } of files) {
    const folder = joinPath(target, parentPath(relativePath));
    groups.set(folder, [...(groups.get(folder) ?? []), file]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.split('/').length - b.split('/').length || a.localeCompare(b))
    .map(([folder, grouped]) => ({ folder, files: grouped }));
}
