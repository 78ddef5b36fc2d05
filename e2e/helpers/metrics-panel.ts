/** A real panel (as e2e/helpers/panel.ts starts it) with a `metrics` config section, for the metrics suites. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema, startPanel } from '@hearth/panel';
import { ensureWebBuilt, type TestPanel } from './panel';

const WEB_DIST = join(import.meta.dirname, '../../apps/web/dist');

export async function startMetricsPanel(metrics: Record<string, unknown>): Promise<TestPanel> {
  ensureWebBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-e2e-'));
  const config = configSchema.parse({
    web: { host: '127.0.0.1', port: 0 },
    panel: { dataDir, databaseUrl: `sqlite:${join(dataDir, 'hearth.db')}`, webDir: WEB_DIST },
    log: { level: 'silent' },
    metrics,
  });
  const panel = await startPanel(config);
  return {
    url: panel.address,
    setupUrl: panel.setupUrl,
    dataDir,
    stop: async () => {
      await panel.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
