import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { secureSqliteFiles } from '../lib/file-modes';

const STATEMENT_CACHE_SIZE = 500;

/**
 * A SQLite handle that reopens itself: if the handle was lost (closed after an I/O error, or the file
 * was unavailable) the next statement opens it again, so the panel recovers without a restart. After
 * the first creation the file must exist: a vanished volume gives an error (→ 503), not a new empty DB.
 */
export class ReopeningSqlite implements SqliteDatabase {
  #db: BetterSqlite3.Database | undefined;
  #created = false;
  /**
   * Prepared statements by SQL text. Kysely prepares every execution; preparing was ~14 % of the panel's CPU
   * under `bench:api`. Statements run synchronously, so reusing one is safe; the cache dies with its handle.
   */
  #statements = new Map<string, BetterSqlite3.Statement>();

  constructor(readonly path: string) {}

  #open(): BetterSqlite3.Database {
    if (this.#db?.open) return this.#db;
    const memory = this.path === ':memory:';
    if (!memory && !this.#created && !existsSync(this.path)) {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o711 });
      secureSqliteFiles(this.path); // created 0600 here, so SQLite's -wal and -shm are 0600 too
    }
    const db = new BetterSqlite3(this.path, { fileMustExist: this.#created && !memory });
    db.pragma('journal_mode = WAL');
    // The users' TOTP secrets, session hashes and settings live here: owner-only (docs/security.md).
    if (!memory) secureSqliteFiles(this.path);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    this.#created = true;
    this.#statements.clear();
    this.#db = db;
    return db;
  }

  prepare(sql: string): SqliteStatement {
    const db = this.#open();
    const cached = this.#statements.get(sql);
    if (cached) return cached;
    const statement = db.prepare(sql);
    // Query texts are few (bound parameters, not literals); the bound only guards against a runaway caller.
    if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.clear();
    this.#statements.set(sql, statement);
    return statement;
  }

  /** Drops the current handle; the next statement reopens it. */
  release(): void {
    this.#statements.clear();
    if (this.#db?.open) this.#db.close();
    this.#db = undefined;
  }

  close(): void {
    this.release();
  }
}
