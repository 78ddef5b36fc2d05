/**
 * A SQLite file that cannot serve the panel now — locked by another process beyond the busy timeout, or corrupt —
 * answers 503 ErrDatabaseNotAvailable (retry later), never 500 ErrGeneric (docs/errors.md).
 */
import { openSync, readSync, closeSync, writeSync, fstatSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { sqlitePath } from '../../src/db/dialect';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';

const codeOf = (res: { json<T>(): T }) => res.json<ErrorBody>().error.code;

describe('sqlite locked or corrupt', () => {
  let t: TestApp | undefined;
  let other: BetterSqlite3.Database | undefined;
  afterEach(async () => {
    other?.close();
    other = undefined;
    await t?.close();
    t = undefined;
  });

  it('a write while another process holds the write lock beyond the busy timeout: 503, then works again', async () => {
    t = await buildTestApp('sqlite');
    const u = await createUser(t);
    const put = (value: string) =>
      call(t as TestApp, 'PUT', '/api/userSettings/locale', { token: u.token, body: { value } });
    expect((await put('de_DE')).statusCode).toBe(204);
    // A real second connection (as another process would) takes the write lock and keeps it.
    other = new BetterSqlite3(sqlitePath(t.testDb.url));
    other.exec('BEGIN IMMEDIATE');
    const locked = await put('fr_FR');
    expect(locked.statusCode).toBe(503);
    expect(codeOf(locked)).toBe('ErrDatabaseNotAvailable');
    other.exec('ROLLBACK');
    expect((await put('fr_FR')).statusCode).toBe(204);
  }, 30_000);

  it('a corrupt database file: 503 ErrDatabaseNotAvailable, not 500', async () => {
    t = await buildTestApp('sqlite');
    const u = await createUser(t);
    const login = () =>
      call(t as TestApp, 'POST', '/auth/login', { body: { email: u.email, password: u.password } });
    expect((await login()).statusCode).toBe(200);
    // Close the handle (SQLite checkpoints the WAL into the file), then overwrite every page after the first
    // with garbage: the header still says "SQLite format 3", the tables are gone.
    t.db.sqlite?.release();
    const path = sqlitePath(t.testDb.url);
    const fd = openSync(path, 'r+');
    try {
      const header = Buffer.alloc(2);
      readSync(fd, header, 0, 2, 16);
      const pageSize = header.readUInt16BE(0) || 65536;
      const size = fstatSync(fd).size;
      expect(size).toBeGreaterThan(pageSize);
      writeSync(fd, Buffer.alloc(size - pageSize, 0xa5), 0, size - pageSize, pageSize);
    } finally {
      closeSync(fd);
    }
    const res = await login();
    expect(res.statusCode).toBe(503);
    expect(codeOf(res)).toBe('ErrDatabaseNotAvailable');
  });
});
