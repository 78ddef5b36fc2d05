import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createConnection } from 'mysql2/promise';
import type { DialectName } from '../../src/db';
import { serverUrls } from './dialects';

export interface TestDatabase {
  url: string;
  dialect: DialectName;
  /** Drops the database (or removes the temp dir). */
  drop(): Promise<void>;
}

/** Runs one admin statement on the shared server (not inside the test database). */
export async function adminSql(dialect: 'postgres' | 'mysql', statement: string): Promise<void> {
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: `${serverUrls.postgres}/postgres` });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
    return;
  }
  const conn = await createConnection({ uri: serverUrls.mysql });
  try {
    await conn.query(statement);
  } finally {
    await conn.end();
  }
}

/** A fresh, empty database for one test file: a temp SQLite file or `hearth_t_<random>` on a server. */
export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-db-'));
    return {
      url: `sqlite:${join(dir, 'hearth.db')}`,
      dialect,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `hearth_t_${randomBytes(6).toString('hex')}`;
  if (dialect === 'postgres') {
    await adminSql('postgres', `CREATE DATABASE ${name}`);
    return {
      url: `${serverUrls.postgres}/${name}`,
      dialect,
      drop: () => adminSql('postgres', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  }
  await adminSql('mysql', `CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
  return {
    url: `${serverUrls.mysql}/${name}`,
    dialect,
    drop: () => adminSql('mysql', `DROP DATABASE IF EXISTS ${name}`),
  };
}
