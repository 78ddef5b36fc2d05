import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { createPool } from 'mysql2';
import type { Database } from './types';
import { dialectOf, mysqlUri, sqlitePath, type DialectName } from './dialect';
import { ReopeningSqlite } from './sqlite-handle';
import { WriteGeneration } from './write-generation';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** SQLite only: the reopening handle (tests use it to simulate a lost handle). */
  sqlite?: ReopeningSqlite;
  /** Bumped by every write this process makes (caches of database state compare it). */
  writes: WriteGeneration;
  close(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 5000;

// BIGINT (oid 20) holds epoch milliseconds and counts: well inside Number's safe range.
const pgTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (v: string) => Number(v) : (pg.types.getTypeParser(oid, format) as (v: string) => unknown),
};

export function connectDatabase(url: string): Db {
  const dialect = dialectOf(url);
  const writes = new WriteGeneration();
  const plugins = [writes];
  switch (dialect) {
    case 'sqlite': {
      const sqlite = new ReopeningSqlite(sqlitePath(url));
      const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), plugins });
      return { kysely, dialect, sqlite, writes, close: () => kysely.destroy() };
    }
    case 'postgres': {
      const pool = new pg.Pool({
        connectionString: url,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        types: pgTypes,
        max: 10,
      });
      // An idle client whose server went away emits 'error'; the pool drops it. Without a listener it would crash.
      pool.on('error', () => undefined);
      // Same for a client whose socket dies between queries: queries in flight still reject normally.
      pool.on('connect', (client) => client.on('error', () => undefined));
      const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins });
      return { kysely, dialect, writes, close: () => kysely.destroy() };
    }
    case 'mysql': {
      const pool = createPool({
        uri: mysqlUri(url),
        connectTimeout: CONNECT_TIMEOUT_MS,
        connectionLimit: 10,
        charset: 'utf8mb4',
        supportBigNumbers: true,
        bigNumberStrings: false,
      });
      const kysely = new Kysely<Database>({ dialect: new MysqlDialect({ pool }), plugins });
      return { kysely, dialect, writes, close: () => kysely.destroy() };
    }
  }
}
