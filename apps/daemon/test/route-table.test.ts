/**
 * The daemon's registered routes against the contract's permission table (docs/permissions.md): every route
 * was registered from exactly one row, with that row's method and path, and every row has its route.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonRouteRows } from '@hearth/contract';
import { parseDaemonConfig } from '../src/index';
import { serverSettingsOf } from '../src/daemon';
import { ServerManager } from '../src/manager/manager';
import { DefinitionStore } from '../src/manager/store';
import { buildDaemonApp } from '../src/transport/app';
import { TokenVerifier } from '../src/transport/token';
import { baseTestConfig } from './helpers/test-config';
import { generateTestKeys } from './helpers/tokens';

interface Registered {
  method: string;
  url: string;
  key: unknown;
}

describe('daemon routes ↔ permission table', () => {
  const registered: Registered[] = [];
  let app: FastifyInstance;
  let dataDir: string;

  beforeAll(async () => {
    const keys = await generateTestKeys();
    dataDir = await mkdtemp(join(tmpdir(), 'hearth-route-table-'));
    const config = parseDaemonConfig(baseTestConfig(dataDir, keys));
    const log = pino({ level: 'silent' });
    const manager = new ServerManager(
      new DefinitionStore(config.serversDir ?? ''),
      serverSettingsOf(config),
      log,
    );
    const verifier = await TokenVerifier.create(config.publicKeyPem, config.nodeId);
    const onRoute = (route: RouteOptions) => {
      for (const method of [route.method].flat()) {
        registered.push({ method, url: route.url, key: route.config?.daemonRoute });
      }
    };
    app = await buildDaemonApp({ manager, verifier, config }, log, { onRoute });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Fastify adds a HEAD route beside each GET; it shares the GET's options (and so its row and check). */
  const routes = () => registered.filter((r) => r.method !== 'HEAD');

  it('registers every route from a row, with the row’s method and path', () => {
    const rows = new Map(daemonRouteRows());
    expect(routes().length).toBeGreaterThan(20);
    for (const route of routes()) {
      const label = `${route.method} ${route.url}`;
      expect(typeof route.key, `${label} was not registered from a table row`).toBe('string');
      const row = rows.get(route.key as never);
      expect(row, `${label}: unknown row ${String(route.key)}`).toBeDefined();
      expect(`${row?.method} ${row?.path}`, label).toBe(label);
    }
  });

  it('has exactly one route per row', () => {
    for (const [key] of daemonRouteRows()) {
      expect(routes().filter((r) => r.key === key).length, key).toBe(1);
    }
  });

  it('gives each HEAD route its GET’s row', () => {
    for (const head of registered.filter((r) => r.method === 'HEAD')) {
      const get = routes().find((r) => r.method === 'GET' && r.url === head.url);
      expect(get?.key, `HEAD ${head.url}`).toBe(head.key);
    }
  });
});
