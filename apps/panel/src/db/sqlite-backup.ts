/**
 * A consistent copy of the panel's SQLite database while the panel may be running: SQLite's online backup
 * API (better-sqlite3 `backup()`), which copies page by page and restarts when a writer changes a page, so
 * the copy is one committed state — never a half-written file as `cp` of a live WAL database can be
 * (docs/backups.md § The panel's own data).
 */
import Database from 'better-sqlite3';

export async function copySqliteOnline(source: string, destination: string): Promise<void> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    await db.backup(destination);
  } finally {
    db.close();
  }
}
