import { createRequire } from 'node:module';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import type * as Pg from 'pg';
import type * as Mysql2 from 'mysql2';
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
  /** The connection pool's counts, for /metrics (PostgreSQL and MariaDB; SQLite has one handle, no pool). */
  pool?: () => PoolCounts;
  close(): Promise<void>;
}

export interface PoolCounts {
  total: number;
  idle: number;
  waiting: number;
}

/** mysql2 keeps its counts in fields it does not declare: read defensively (absent → 0). */
function mysqlPoolCounts(pool: object): PoolCounts {
  const p = pool as { _allConnections?: { length?: number }; _freeConnections?: { length?: number } };
  const q = pool as { _connectionQueue?: { length?: number } };
  return {
    total: p._allConnections?.length ?? 0,
    idle: p._freeConnections?.length ?? 0,
    waiting: q._connectionQueue?.length ?? 0,
  };
}

const CONNECT_TIMEOUT_MS = 5000;

/**
 * The PostgreSQL and MariaDB drivers are loaded only when the URL names them: a default SQLite install never
 * pays their start-up cost (docs/performance.md § Start-up). They stay outside the bundle (scripts/build).
 */
const requireDriver = createRequire(import.meta.url);
const loadPg = () => requireDriver('pg') as typeof Pg;
const loadMysql = () => requireDriver('mysql2') as typeof Mysql2;

// BIGINT (oid 20) holds epoch milliseconds and counts: well inside Number's safe range.
function pgTypesOf(pg: typeof Pg) {
  return {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === 20 ? (v: string) => Number(v) : (pg.types.getTypeParser(oid, format) as (v: string) => unknown),
  };
}

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
      const pg = loadPg();
      const pool = new pg.Pool({
        connectionString: url,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        types: pgTypesOf(pg),
        max: 10,
      });
      // An idle client whose server went away emits 'error'; the pool drops it. Without a listener it would crash.
      pool.on('error', () => undefined);
      // Same for a client whose socket dies between queries: queries in flight still reject normally.
      pool.on('connect', (client) => client.on('error', () => undefined));
      const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins });
      const counts = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
      return { kysely, dialect, writes, pool: counts, close: () => kysely.destroy() };
    }
    case 'mysql': {
      const pool = loadMysql().createPool({
        uri: mysqlUri(url),
        connectTimeout: CONNECT_TIMEOUT_MS,
        connectionLimit: 10,
        charset: 'utf8mb4',
        supportBigNumbers: true,
        bigNumberStrings: false,
      });
      const kysely = new Kysely<Database>({ dialect: new MysqlDialect({ pool }), plugins });
      return { kysely, dialect, writes, pool: () => mysqlPoolCounts(pool), close: () => kysely.destroy() };
    }
  }
}
