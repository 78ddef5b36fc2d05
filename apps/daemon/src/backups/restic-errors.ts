/**
 * restic's failures → catalogued errors (docs/errors.md, docs/backups.md § Errors). restic has no error codes in
 * 0.14, so its stderr is read: a full destination, an unreachable one, a password that does not open the
 * repository, or anything else with restic's own first fatal line as the reason. Credentials in a REST URL are
 * masked before any text leaves.
 */
import { AppError } from '@hearth/contract';

const FULL = /no space left on device|disk quota exceeded|quotaexceeded|insufficient ?storage|507/i;
const UNREACHABLE = new RegExp(
  [
    'connection refused',
    'no such host',
    'i/o timeout',
    'dial tcp',
    'network is unreachable',
    'unable to open (repository|config)',
    'is there a repository at the following location',
    'connection closed',
    'host key verification failed',
    'permission denied \\(publickey',
    'subprocess ssh',
    'unable to start the sftp session',
    'nosuchbucket',
    'accessdenied',
    'invalidaccesskeyid',
    'signaturedoesnotmatch',
    'unexpected http response',
    '401 unauthorized',
    '403 forbidden',
    'client.bucketexists',
    'ssh: ',
  ].join('|'),
  'i',
);
/** A snapshot id restic does not find (removed outside Hearth after the daemon recorded it). */
const NO_SNAPSHOT = /no matching ID found/i;
const WRONG_PASSWORD = /wrong password|no key found/i;

/** `rest:http://user:secret@host/` → `rest:http://***@host/`: nothing secret in an error. */
export function maskSecrets(text: string): string {
  return text.replace(/(\w+:\/\/)[^/\s@]*@/g, '$1***@');
}

/** restic's most telling line: its `Fatal:` line, else the last non-empty one; at most 300 characters. */
export function reasonOf(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const fatal = lines.find((l) => l.startsWith('Fatal:')) ?? lines.at(-1) ?? 'restic failed';
  return maskSecrets(fatal.replace(/^Fatal:\s*/, '')).slice(0, 300);
}

export function resticError(stderr: string, code: number | null, spawnError?: Error): AppError {
  if (spawnError) {
    const missing = (spawnError as NodeJS.ErrnoException).code === 'ENOENT';
    return new AppError('ErrBackupUnavailable', {
      reason: missing ? 'restic is not installed' : spawnError.message,
    });
  }
  // Run through setpriv (restic.ts): a missing program is its message, not a spawn error.
  if (/setpriv: failed to execute/.test(stderr))
    return new AppError('ErrBackupUnavailable', { reason: 'restic is not installed' });
  const reason = reasonOf(stderr);
  if (FULL.test(stderr)) return new AppError('ErrBackupDestinationFull', { reason });
  if (WRONG_PASSWORD.test(stderr))
    return new AppError('ErrBackupUnavailable', {
      reason: 'the node’s password does not open the repository',
    });
  if (NO_SNAPSHOT.test(stderr)) return new AppError('ErrBackupNotFound');
  if (UNREACHABLE.test(stderr)) return new AppError('ErrBackupDestinationUnreachable', { reason });
  return new AppError('ErrBackupFailed', { reason: code === null ? reason : `${reason} (exit ${code})` });
}
