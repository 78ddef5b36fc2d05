import type { ErrorBody } from '@hearth/contract';
import { renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../src/app';
import { connectDatabase, migrateToLatest, type Db } from '../../src/db';
import { sqlitePath } from '../../src/db/dialect';
import { call, createUser, testConfig } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { DIALECTS } from '../helpers/dialects';
import { TcpProxy } from '../helpers/tcp-proxy';

/** Rewrites a server URL to go through the proxy. */
function viaProxy(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
}

describe.each(DIALECTS)('database outage on %s', (dialect) => {
  let testDb: TestDatabase;
  let proxy: TcpProxy | undefined;
  let db: Db;
  let t: BuiltApp;
  let token: string;
  let cut: () => Promise<void>;
  let restore: () => Promise<void>;

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    let url = testDb.url;
    if (dialect === 'sqlite') {
      // SQLite has no server to lose: the file's folder (its volume) disappears and the handle is dropped.
      const folder = dirname(sqlitePath(url));
      cut = async () => {
        renameSync(folder, `${folder}.away`);
        db.sqlite?.release();
      };
      restore = async () => renameSync(`${folder}.away`, folder);
    } else {
      const target = new URL(url);
      proxy = new TcpProxy(target.hostname, Number(target.port));
      await proxy.start();
      url = viaProxy(url, proxy.port);
      const p = proxy;
      cut = () => p.cut();
      restore = () => p.start();
    }
    db = connectDatabase(url);
    await migrateToLatest(db.kysely);
    t = await buildApp(testConfig({ panel: { databaseUrl: url } }), { db });
    await t.app.ready();
    token = (await createUser(t, { admin: true })).token;
  });
  afterAll(async () => {
    await t?.app.close();
    await db?.close();
    await proxy?.cut();
    await testDb?.drop();
  });

  const read = () => call(t, 'GET', '/api/settings/panel.settings.companyName', { token });

  it('answers 503 ErrDatabaseNotAvailable while the database is gone, and recovers without a restart', async () => {
    expect((await read()).statusCode).toBe(200);
    await cut();
    for (const request of [read(), call(t, 'GET', '/api/config')]) {
      const res = await request;
      expect(res.statusCode).toBe(503);
      expect(res.json<ErrorBody>().error.code).toBe('ErrDatabaseNotAvailable');
    }
    // The web app (no database needed) still loads while the database is away.
    expect((await call(t, 'GET', '/server')).statusCode).toBe(200);
    await restore();
    const back = await read();
    expect(back.statusCode).toBe(200);
    expect(back.json()).toEqual({ value: 'Hearth' });
  });
});
