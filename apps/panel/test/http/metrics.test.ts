/**
 * The panel's /metrics on every dialect (docs/configuration.md § Metrics): 404 while off (never the web app's
 * page), 401 ErrTokenInvalid without the token, with a wrong one or with a user's session; the token holder and
 * allowed addresses get HTTP counts by route pattern (not raw URL), latency, the database pool and node states.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { configSchema } from '../../src/config/schema';
import { connectDatabase, migrateToLatest, type DialectName } from '../../src/db';
import { buildTestApp, call, createUser, fakeWebDir, type TestApp } from '../helpers/app';
import { createTestDatabase } from '../helpers/database';
import { DIALECTS } from '../helpers/dialects';

const TOKEN = 'panel-metrics-token-5678';

/** A panel with a `metrics` section (the shared helper's config has none). */
async function metricsApp(dialect: DialectName, metrics: object): Promise<TestApp> {
  const testDb = await createTestDatabase(dialect);
  const config = configSchema.parse({
    web: { port: 0 },
    panel: {
      dataDir: mkdtempSync(join(tmpdir(), 'hearth-data-')),
      webDir: fakeWebDir(),
      databaseUrl: testDb.url,
    },
    log: { level: 'silent' },
    metrics,
  });
  const db = connectDatabase(testDb.url);
  await migrateToLatest(db.kysely);
  const built = await buildApp(config, { db });
  await built.app.ready();
  return {
    ...built,
    testDb,
    config,
    close: async () => {
      await built.app.close();
      await db.close();
      await testDb.drop();
    },
  };
}

const codeOf = (body: string) => (JSON.parse(body) as { error?: { code?: string } }).error?.code;

describe.each(DIALECTS)('panel /metrics (%s)', (dialect) => {
  describe('while off (the default)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t?.close());

    it('is a 404 ErrNotFound for everyone, not the web app', async () => {
      const admin = await createUser(t, { admin: true });
      for (const token of [undefined, TOKEN, admin.token]) {
        const res = await call(t, 'GET', '/metrics', { token });
        expect(res.statusCode).toBe(404);
        expect(codeOf(res.body)).toBe('ErrNotFound');
      }
    });
  });

  describe('with a token', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await metricsApp(dialect, { enabled: true, token: TOKEN });
    });
    afterAll(async () => t?.close());

    it('refuses no token, a wrong token, a bare token and an administrator’s session', async () => {
      const admin = await createUser(t, { admin: true });
      for (const authorization of [undefined, 'Bearer nope', TOKEN, `Bearer ${admin.token}`]) {
        const res = await t.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: authorization ? { authorization } : {},
        });
        expect(res.statusCode, String(authorization)).toBe(401);
        expect(codeOf(res.body)).toBe('ErrTokenInvalid');
      }
    });

    it('counts requests by route pattern and status, and reports the pool and the nodes', async () => {
      const admin = await createUser(t, { admin: true });
      await call(t, 'GET', '/api/servers/deadbeef', { token: admin.token });
      await call(t, 'GET', '/api/servers/cafebabe', { token: admin.token });
      const res = await call(t, 'GET', '/metrics', { token: TOKEN });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      const text = res.body;
      expect(text).toContain(
        'hearth_panel_http_requests_total{method="GET",route="/api/servers/:id",status="404"} 2',
      );
      expect(text).not.toContain('deadbeef');
      expect(text).toMatch(
        /hearth_panel_http_request_duration_seconds_count\{method="GET",route="\/api\/servers\/:id"\} 2/,
      );
      expect(text).toContain(`hearth_panel_db_pool_connections{state="total",dialect="${dialect}"}`);
      expect(text).toMatch(
        /hearth_panel_node_status\{node="[^"]+",name="[^"]+",state="(online|offline|unknown)"\} 1/,
      );
      expect(text).toContain('hearth_panel_proxied_sockets 0');
      expect(text).toContain('hearth_panel_process_resident_memory_bytes');
    });
  });

  describe('with an allow list', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await metricsApp(dialect, { enabled: true, allow: ['10.0.0.0/8', '::1'] });
    });
    afterAll(async () => t?.close());

    it('serves listed addresses without a token and refuses the others', async () => {
      const from = (remoteAddress: string) => t.app.inject({ method: 'GET', url: '/metrics', remoteAddress });
      expect((await from('10.1.2.3')).statusCode).toBe(200);
      expect((await from('::ffff:10.9.9.9')).statusCode).toBe(200);
      expect((await from('::1')).statusCode).toBe(200);
      for (const address of ['192.168.1.5', '127.0.0.1', '11.0.0.1']) {
        const res = await from(address);
        expect(res.statusCode, address).toBe(401);
        expect(codeOf(res.body)).toBe('ErrTokenInvalid');
      }
    });
  });
});

describe('panel metrics config', () => {
  it('refuses metrics on without a token or an allow list, and a bad address', () => {
    expect(() => configSchema.parse({ metrics: { enabled: true } })).toThrow(/token or an allow list/);
    expect(() => configSchema.parse({ metrics: { allow: ['10.0.0.0/33'] } })).toThrow(/CIDR/);
    expect(configSchema.parse({ metrics: { allow: '10.0.0.1, fd00::/8' } }).metrics.allow).toEqual([
      '10.0.0.1',
      'fd00::/8',
    ]);
  });
});
