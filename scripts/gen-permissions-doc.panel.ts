/**
 * The panel's routes and what each declares (`config.permission`, `config.server`, `config.sessionOnly`), read
 * from a panel built on a throwaway SQLite database — the same onRoute walk as the authorization-matrix test.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RouteOptions } from 'fastify';
import { buildApp } from '../apps/panel/src/app';
import { configSchema } from '../apps/panel/src/config/schema';
import { connectDatabase, migrateToLatest } from '../apps/panel/src/db';

export interface PanelRouteInfo {
  method: string;
  url: string;
  permission: string;
  server?: string;
  sessionOnly?: boolean;
}

export async function collectPanelRoutes(): Promise<PanelRouteInfo[]> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-permissions-doc-'));
  // A built web app (one index.html) so the static routes are those of a real installation.
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Hearth</title>');
  const databaseUrl = `sqlite:${join(dir, 'hearth.db')}`;
  const config = configSchema.parse({
    web: { port: 0 },
    panel: { dataDir: dir, webDir: dir, databaseUrl },
    email: {},
    log: { level: 'silent' },
  });
  const db = connectDatabase(databaseUrl);
  const seen: RouteOptions[] = [];
  try {
    await migrateToLatest(db.kysely);
    const { app } = await buildApp(config, { db, onRoute: (route) => void seen.push(route) });
    await app.ready();
    await app.close();
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
  // Read the options after `ready`: plugin scopes (markPublic) may set the permission after onRoute ran.
  return seen.flatMap((route) =>
    [route.method].flat().map((method) => ({
      method,
      url: route.url,
      permission: String(route.config?.permission ?? 'undeclared'),
      ...(route.config?.server ? { server: route.config.server } : {}),
      ...(route.config?.sessionOnly ? { sessionOnly: true } : {}),
    })),
  );
}
