/**
 * The bench's data folder: a first `hearth start` of the built tree creates the database, the first administrator
 * comes from the setup link, and 10 servers are defined on the local node through the API (not installed, not
 * started), as a small install that has been used. Later starts find all of it ("existing data folder").
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeGameDefinition } from '../../apps/daemon/test/helpers/test-daemon';
import { freePort } from '../../e2e/helpers/net';
import { startHearth } from './process';

export const SERVERS = 10;

export interface BenchData {
  dir: string;
  config: string;
  web: number;
  node: number;
}

export async function prepareData(built: string): Promise<BenchData> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-startup-'));
  const [web, node, sftp] = [await freePort(), await freePort(), await freePort()];
  const config = join(dir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      web: { host: '127.0.0.1', port: web },
      panel: { dataDir: join(dir, 'data'), databaseUrl: `sqlite:${join(dir, 'data/hearth.db')}` },
      node: { port: node, sftpHost: '127.0.0.1', sftpPort: sftp },
    }),
  );
  const hearth = await startHearth(built, config);
  try {
    const setupUrl = await hearth.setupUrl();
    const panel = `http://127.0.0.1:${web}`;
    const setup = await fetch(`${panel}/auth/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: 'admin',
        email: 'admin@example.com',
        password: 'bench-password-1',
        token: new URL(setupUrl).searchParams.get('token'),
      }),
    });
    if (!setup.ok) throw new Error(`setup: ${setup.status} ${await setup.text()}`);
    const { session } = (await setup.json()) as { session: string };
    await hearth.untilNodeAnswers(node);
    for (let i = 1; i <= SERVERS; i += 1) {
      const created = await fetch(`${panel}/api/servers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...fakeGameDefinition(), name: `bench-${i}`, node: 'local', users: [] }),
      });
      if (!created.ok) throw new Error(`server ${i}: ${created.status} ${await created.text()}`);
    }
  } finally {
    await hearth.stop();
  }
  return { dir, config, web, node };
}
