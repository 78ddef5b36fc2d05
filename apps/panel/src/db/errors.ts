/** Classifies driver errors without leaking them: callers turn these into catalogue codes. */
function codeOf(err: unknown): string {
  if (typeof err !== 'object' || err === null) return '';
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : '';
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : '';
}

const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_BAD_DB_ERROR',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_LOCK_WAIT_TIMEOUT', // mysql: a lock held elsewhere beyond innodb_lock_wait_timeout
  'ER_CRASHED_ON_USAGE',
  'ER_NOT_KEYFILE',
  'ER_DISK_FULL',
  'ER_RECORD_FILE_FULL',
  '3D000', // pg: database does not exist
  '57P01', // pg: admin shutdown
  '57P02',
  '57P03',
  '53300', // pg: too many connections
  '53100', // pg: disk full
  '55P03', // pg: lock not available (lock_timeout)
  '58030', // pg: I/O error
  'XX001', // pg: data corrupted
  'XX002', // pg: index corrupted
]);

/**
 * SQLite result codes (and their extended forms, e.g. SQLITE_BUSY_SNAPSHOT, SQLITE_IOERR_READ) that mean the
 * file cannot serve us now — locked by another process beyond the busy timeout, corrupt, not a database, out of
 * space, unreadable — rather than that our statement was wrong: 503, not 500 (docs/errors.md).
 */
const sqliteUnavailable = /^SQLITE_(BUSY|LOCKED|CORRUPT|NOTADB|CANTOPEN|IOERR|FULL|READONLY|PROTOCOL)(_|$)/;

/** True when the database cannot be reached (as opposed to a bad query): answer 503 and retry later. */
export function isDatabaseUnavailable(err: unknown): boolean {
  const code = codeOf(err);
  if (connectionCodes.has(code) || code.startsWith('08') || sqliteUnavailable.test(code)) return true;
  const message = messageOf(err);
  return (
    /Connection terminated|connection is not open|Cannot open database because the directory does not exist|Can't add new command when connection is in closed state/i.test(
      message,
    ) || /timeout exceeded when trying to connect|connect ETIMEDOUT/i.test(message)
  );
}

/** Unique-constraint violation on any dialect. */
export function isUniqueViolation(err: unknown): boolean {
  const code = codeOf(err);
  return (
    code === '23505' ||
    code === 'ER_DUP_ENTRY' ||
    code.startsWith('SQLITE_CONSTRAINT_UNIQUE') ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
