import type { ErrorBody } from '@hearth/contract';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { connectDatabase, migrateToLatest } from '../../src/db';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { call, createUser, testConfig } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { expectNotFound } from '../helpers/expect-http';
import type { BuiltApp } from '../../src/app';

describe.each(DIALECTS)('error model on %s', (dialect) => {
  let testDb: TestDatabase;
  let t: BuiltApp;
  let token: string;
  const logged: string[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    const db = connectDatabase(testDb.url);
    await migrateToLatest(db.kysely);
    const config = testConfig({ web: { bodyLimit: 2048 }, panel: { databaseUrl: testDb.url } });
    const logStream = new Writable({
      write(chunk: Buffer, _enc, done) {
        logged.push(chunk.toString());
        done();
      },
    });
    t = await buildApp({ ...config, log: { ...config.log, level: 'error' } }, { logStream });
    t.app.get('/api/test/boom', { config: { permission: 'public' } }, () => {
      throw new Error('secret internals at /srv/hearth/db.ts:42');
    });
    await t.app.ready();
    await db.close();
    token = (await createUser(t, { admin: true })).token;
  });
  afterAll(async () => {
    await t?.app.close();
    await testDb?.drop();
  });

  const put = (payload: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/settings/panel.settings.companyName',
      headers: { ...headers, authorization: `Bearer ${token}` },
      payload,
    });

  it('malformed JSON → 400 ErrInvalidJson', async () => {
    for (const bad of ['{"value":', 'not json', '{"__proto__":{"x":1},"value":"a"}']) {
      const res = await put(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json<ErrorBody>().error.code).toBe('ErrInvalidJson');
    }
  });

  it('wrong types and unknown keys → 400 with the field', async () => {
    const wrong = await put(JSON.stringify({ value: { nested: true } }));
    expect(wrong.json<ErrorBody>().error).toMatchObject({
      code: 'ErrFieldInvalid',
      metadata: { field: 'value' },
    });
    const array = await put(JSON.stringify([1, 2]));
    expect(array.statusCode).toBe(400);
    const unknown = await put(JSON.stringify({ value: 'x', admin: true }));
    expect(unknown.json<ErrorBody>().error).toMatchObject({
      code: 'ErrFieldUnknown',
      metadata: { field: 'admin' },
    });
  });

  it('oversized body → 413 ErrPayloadTooLarge with the limit', async () => {
    const res = await put(JSON.stringify({ value: 'x'.repeat(5000) }));
    expect(res.statusCode).toBe(413);
    expect(res.json<ErrorBody>().error).toMatchObject({
      code: 'ErrPayloadTooLarge',
      metadata: { limit: 2048 },
    });
  });

  it('unsupported content type → 415', async () => {
    const res = await put('value=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(415);
    expect(res.json<ErrorBody>().error.code).toBe('ErrUnsupportedMediaType');
  });

  it('unknown error → 500 ErrGeneric without internals, logged with its cause', async () => {
    const res = await call(t, 'GET', '/api/test/boom');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: 'ErrGeneric', msg: 'Unknown error' } });
    expect(res.body).not.toContain('secret internals');
    expect(logged.join('\n')).toContain('secret internals');
  });

  it('unknown machine paths → 404 JSON; unknown app paths → index.html', async () => {
    await expectNotFound(t, [
      '/api/nope',
      '/auth/nope',
      '/oauth2/nope',
      '/proxy/daemon/x',
      '/daemon/x',
      '/api',
    ]);
    expect((await call(t, 'POST', '/server/abc')).statusCode).toBe(404);
    for (const url of [
      '/',
      '/server',
      '/server/abc',
      '/auth-ish/page',
      '/errors/404?x=1',
      '/auth/login',
      '/auth/invite?token=x',
      '/auth/setup?token=y',
    ]) {
      const res = await call(t, 'GET', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('Hearth test shell');
    }
  });

  it('sets security headers on every answer', async () => {
    for (const url of ['/api/config', '/server', '/api/nope']) {
      const res = await call(t, 'GET', url);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('serves the OpenAPI document and the Swagger UI', async () => {
    const doc = await call(t, 'GET', '/swagger/doc.json');
    expect(doc.statusCode).toBe(200);
    expect(doc.json<{ paths: Record<string, unknown> }>().paths['/api/settings/{key}']).toBeDefined();
    const ui = await call(t, 'GET', '/swagger/');
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('Swagger UI');
  });
});

describe('without a web build', () => {
  it('serves a plain page that says to run npm run build', async () => {
    const testDb = await createTestDatabase('sqlite');
    const config = testConfig({
      panel: { databaseUrl: testDb.url, webDir: mkdtempSync(join(tmpdir(), 'empty-')) },
    });
    const { app } = await buildApp(config);
    const res = await app.inject({ method: 'GET', url: '/server' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('npm run build');
    await app.close();
    await testDb.drop();
  });
});
