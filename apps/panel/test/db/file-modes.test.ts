/** What the panel keeps on disk is the owner's alone (docs/security.md § Files at rest). */
import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load';
import { startPanel } from '../../src/main';
import { testConfig } from '../helpers/app';

const modeOf = (path: string) => statSync(path).mode & 0o777;

async function startIn(dataDir: string) {
  const config = testConfig({
    web: { host: '127.0.0.1', port: 0 },
    panel: { dataDir, databaseUrl: `sqlite:${join(dataDir, 'hearth.db')}` },
  });
  return startPanel(config);
}

describe('file modes', () => {
  it('a fresh start: hearth.db and its -wal/-shm are 0600, the data folder is not listable by others', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'hearth-modes-')), 'data');
    const panel = await startIn(dataDir);
    try {
      const db = join(dataDir, 'hearth.db');
      expect(modeOf(db)).toBe(0o600);
      expect(modeOf(`${db}-wal`)).toBe(0o600);
      expect(modeOf(`${db}-shm`)).toBe(0o600);
      expect(modeOf(dataDir) & 0o066).toBe(0);
      expect(modeOf(join(dataDir, 'keys'))).toBe(0o700);
    } finally {
      await panel.close();
    }
  });

  it('an older install with a 0644 database and a 0755 data folder is tightened on start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hearth-modes-'));
    chmodSync(dataDir, 0o755);
    const first = await startIn(dataDir);
    await first.close();
    const db = join(dataDir, 'hearth.db');
    chmodSync(db, 0o644);
    chmodSync(dataDir, 0o777);
    expect(modeOf(db)).toBe(0o644);
    const again = await startIn(dataDir);
    try {
      expect(modeOf(db)).toBe(0o600);
      expect(modeOf(`${db}-wal`)).toBe(0o600);
      expect(modeOf(dataDir)).toBe(0o711);
    } finally {
      await again.close();
    }
  });

  it('config.json readable by others becomes 0600 when it is loaded', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'hearth-modes-')), 'config.json');
    writeFileSync(path, JSON.stringify({ email: { password: 'smtp secret' } }), { mode: 0o644 });
    chmodSync(path, 0o644);
    expect(loadConfig({ path, env: {} }).email.password).toBe('smtp secret');
    expect(modeOf(path)).toBe(0o600);
  });
});
