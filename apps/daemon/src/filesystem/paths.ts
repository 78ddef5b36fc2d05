/**
 * Pure path rules of the sandbox. A user path is relative to a server's root and may not hold NUL bytes,
 * `..` segments or be absolute. Containment is decided with `path.relative`, never with string prefixes
 * (`/srv/a` must not admit `/srv/a-secret`).
 */
import { isAbsolute, normalize, relative, resolve, sep } from 'node:path';
import { AppError } from '@hearth/contract';

/** True when `candidate` is `root` itself or below it. Both must be absolute, normalised paths. */
export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Checks a user path and returns it joined to `root` (lexically; symlinks are checked by the sandbox). */
export function lexicalPath(root: string, userPath: string): string {
  if (userPath.includes('\0')) throw illegal(userPath, 'NUL byte');
  if (isAbsolute(userPath) || /^[a-zA-Z]:[\\/]/.test(userPath)) throw illegal(userPath, 'absolute path');
  const segments = userPath.split(/[\\/]+/);
  if (segments.includes('..')) throw illegal(userPath, '".." segment');
  const full = resolve(root, normalize(userPath === '' ? '.' : userPath));
  if (!isInside(root, full)) throw illegal(userPath, 'outside the server folder');
  return full;
}

export function illegal(path: string, reason: string): AppError {
  return new AppError('ErrIllegalFileAccess', { path, reason });
}

/** Checks a user path and returns its components below the root (`[]` for the root itself). */
export function segmentsOf(userPath: string): string[] {
  lexicalPath('/', userPath);
  return userPath.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
}

/** Splits checked components into the parent folder's components and the last name (`''` for the root). */
export function splitLast(segments: string[]): { parent: string[]; name: string } {
  return { parent: segments.slice(0, -1), name: segments.at(-1) ?? '' };
}
