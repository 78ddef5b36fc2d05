/**
 * docs/grafana/hearth.json speaks the metric names Hearth really serves: every `hearth_*` name in its queries is
 * declared (`# TYPE`) by a real daemon's or a real panel's /metrics (SQLite), so a renamed metric cannot leave the
 * dashboard silently empty.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../apps/panel/src/app';
import { configSchema } from '../../apps/panel/src/config/schema';
import { migrateToLatest } from '../../apps/panel/src/db';
import { fakeWebDir } from '../../apps/panel/test/helpers/app';
import { startTestDaemon, type TestDaemon } from '../../apps/daemon/test/helpers/test-daemon';

const TOKEN = 'dashboard-test-token';
const dashboard = readFileSync(
  join(import.meta.dirname, '..', '..', 'docs', 'grafana', 'hearth.json'),
  'utf8',
);

/** The names a query uses, with a histogram's `_bucket` series read as the histogram itself. */
function namesInDashboard(): string[] {
  const parsed = JSON.parse(dashboard) as { panels: Array<{ targets?: Array<{ expr: string }> }> };
  const exprs = parsed.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
  const names = exprs.flatMap((expr) => expr.match(/hearth_[a-z0-9_]+/g) ?? []);
  return [...new Set(names.map((n) => n.replace(/_bucket$/, '')))].sort();
}

const declared = (text: string) => new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));

describe('docs/grafana/hearth.json', () => {
  let daemon: TestDaemon;
  let served = new Set<string | undefined>();

  beforeAll(async () => {
    daemon = await startTestDaemon({ metrics: { enabled: true, token: TOKEN } });
    const daemonText = await (
      await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).text();
    const dataDir = mkdtempSync(join(tmpdir(), 'hearth-dashboard-'));
    const config = configSchema.parse({
      web: { port: 0 },
      panel: { dataDir, webDir: fakeWebDir(), databaseUrl: `sqlite:${join(dataDir, 'hearth.db')}` },
      log: { level: 'silent' },
      metrics: { enabled: true, token: TOKEN },
    });
    const { app, db } = await buildApp(config);
    await migrateToLatest(db.kysely);
    await app.ready();
    const panelText = (
      await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
    ).body;
    await app.close();
    served = new Set([...declared(daemonText), ...declared(panelText)]);
  });
  afterAll(async () => daemon?.close());

  it('queries only metrics the daemon or the panel declares', () => {
    const names = namesInDashboard();
    expect(names.length).toBeGreaterThan(15);
    expect(names.filter((name) => !served.has(name))).toEqual([]);
  });
});
