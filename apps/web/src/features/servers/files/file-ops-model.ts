/**
 * Pure rules of the file manager's rename, move, copy and permissions dialogs (docs/files.md § Web file
 * manager): the mode as nine checkboxes or three octal digits, and where each entry of a move or copy goes.
 */
import { joinPath, normalizePath } from './file-model';

export const WHO = ['owner', 'group', 'others'] as const;
export const WHAT = ['read', 'write', 'execute'] as const;
export type Who = (typeof WHO)[number];
export type What = (typeof WHAT)[number];

/** The bit of `who`'s `what` permission (owner read = 0o400 … others execute = 0o001). */
export function permissionBit(who: Who, what: What): number {
  return (4 >> WHAT.indexOf(what)) << (3 * (2 - WHO.indexOf(who)));
}

/** Three octal digits (permission bits only; the setuid/setgid/sticky digit is never offered). */
export function toOctal(mode: number): string {
  return (mode & 0o777).toString(8).padStart(3, '0');
}

/** Three (or four with a leading 0) octal digits → the mode; null when not a permission-bits mode. */
export function parseOctal(text: string): number | null {
  const trimmed = text.trim();
  if (!/^0?[0-7]{3}$/.test(trimmed)) return null;
  return Number.parseInt(trimmed, 8);
}

/** `rwxr-xr-x` for a mode (the listing's `ls -l` form). */
export function symbolic(mode: number): string {
  return WHO.map((who) =>
    WHAT.map((what, i) => (mode & permissionBit(who, what) ? 'rwx'[i] : '-')).join(''),
  ).join('');
}

/** The same folder written in one way: no leading, trailing or doubled slashes (`''` is the server folder). */
export function destinationFolder(input: string): string {
  return normalizePath(input.trim());
}

/** Each ticked name's source and target for a move or copy into `destination`. */
export function transfers(folder: string, names: string[], destination: string) {
  const target = destinationFolder(destination);
  return names.map((name) => ({ from: joinPath(folder, name), to: joinPath(target, name) }));
}

/** A rename's new path beside the old one; null for a name that is blank, `.`/`..` or holds a slash. */
export function renameTarget(folder: string, name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed === '.' || trimmed === '..' || /[\\/]/.test(trimmed)) return null;
  return joinPath(folder, trimmed);
}

/** The folder holding a search hit (a file opens in it; a folder opens itself). */
export function hitFolder(path: string, isFile: boolean): string {
  if (!isFile) return path;
  const parts = path.split('/');
  return parts.slice(0, -1).join('/');
}
