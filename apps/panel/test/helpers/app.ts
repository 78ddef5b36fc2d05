import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { emptyPanelPermissions, type PanelPermissionSet } from '@hearth/contract';
import { buildApp, type AppDeps, type BuiltApp } from '../../src/app';
import { configSchema, type PanelConfig } from '../../src/config/schema';
import { connectDatabase, migrateToLatest, type DialectName } from '../../src/db';
import { hashPassword } from '../../src/lib/passwords';
import { createTestDatabase, type TestDatabase } from './database';

export interface TestApp extends BuiltApp {
  testDb: TestDatabase;
  config: PanelConfig;
  close(): Promise<void>;
}

/** A tiny built web app so the history-mode fallback has an index.html to serve. */
export function fakeWebDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-web-'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><title>Hearth test shell</title><div id="root"></div>',
  );
  return dir;
}

export function testConfig(overrides: { web?: object; panel?: object; email?: object } = {}): PanelConfig {
  return configSchema.parse({
    web: { port: 0, ...overrides.web },
    panel: { dataDir: mkdtempSync(join(tmpdir(), 'hearth-data-')), webDir: fakeWebDir(), ...overrides.panel },
    email: overrides.email ?? {},
    log: { level: 'silent' },
  });
}

/** A fresh migrated database on `dialect` and the panel built on it (not listening; use `app.inject`). */
export async function buildTestApp(
  dialect: DialectName,
  overrides: Parameters<typeof testConfig>[0] = {},
  deps: Omit<AppDeps, 'db'> = {},
): Promise<TestApp> {
  const testDb = await createTestDatabase(dialect);
  const config = testConfig({ ...overrides, panel: { databaseUrl: testDb.url, ...overrides.panel } });
  const db = connectDatabase(testDb.url);
  await migrateToLatest(db.kysely);
  const built = await buildApp(config, { ...deps, db });
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

let counter = 0;

/** Creates an active user with the given panel permissions and returns a live session token. */
export async function createUser(
  t: BuiltApp,
  perms: Partial<PanelPermissionSet> = {},
  password = 'correct horse battery',
): Promise<{ id: string; email: string; username: string; password: string; token: string }> {
  counter += 1;
  const username = `user${counter}_${Math.random().toString(36).slice(2, 8)}`;
  const email = `${username}@example.com`;
  const user = await t.services.users.insert({ username, email, passwordHash: await hashPassword(password) });
  await t.services.permissions.setPanelPermissions(user.id, { ...emptyPanelPermissions(), ...perms });
  const { token } = await t.services.sessions.issue(user.id);
  return { id: user.id, email, username, password, token };
}

export type TestUser = Awaited<ReturnType<typeof createUser>>;

/** `app.inject` with an optional bearer token. */
export function call(
  t: BuiltApp,
  method: InjectOptions['method'],
  url: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body === undefined) return t.app.inject({ method, url, headers });
  return t.app.inject({ method, url, headers, payload: options.body as InjectOptions['payload'] });
}
