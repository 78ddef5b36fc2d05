/** fs.Stats → SFTP attributes and `ls -l` long names; SFTP paths → sandbox paths. */
import type { Stats } from 'node:fs';
import { posix } from 'node:path';
import type { Attributes } from 'ssh2';

export function attrsOf(stats: Stats): Attributes {
  return {
    mode: stats.mode,
    uid: stats.uid,
    gid: stats.gid,
    size: stats.size,
    atime: Math.floor(stats.atimeMs / 1000),
    mtime: Math.floor(stats.mtimeMs / 1000),
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function modeString(stats: Stats): string {
  const type = stats.isDirectory() ? 'd' : stats.isSymbolicLink() ? 'l' : '-';
  const bits = 'rwxrwxrwx'.split('').map((c, i) => (stats.mode & (0o400 >> i) ? c : '-'));
  return type + bits.join('');
}

export function longname(name: string, stats: Stats): string {
  const d = stats.mtime;
  const date = `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${d.getUTCFullYear()}`;
  return `${modeString(stats)} 1 hearth hearth ${String(stats.size).padStart(10)} ${date} ${name}`;
}

/** The client's absolute view ('/' = the server folder). `..` above '/' stays at '/', like a chroot. */
export function clientPath(path: string): string {
  return posix.normalize(`/${path.replace(/\0/g, '\uFFFD')}`).replace(/(.)\/$/, '$1');
}

/** The sandbox path of a client path (NUL kept, so the sandbox refuses it). */
export function sandboxPath(path: string): string {
  if (path.includes('\0')) return path;
  return posix.normalize(`/${path}`).slice(1).replace(/\/$/, '');
}
