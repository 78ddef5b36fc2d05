/** The `archive` and `extract` processors run the file API's code: round trip, and a `..` source refused. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon';

let d: TestDaemon;
beforeAll(async () => {
  d = await startTestDaemon();
});
afterAll(async () => {
  await d.close();
});

async function install(id: string, steps: unknown[]): Promise<{ status: number; logs: string }> {
  const token = await d.admin();
  await d.request('PUT', `/daemon/server/${id}`, {
    token,
    body: { run: { command: 'true' }, install: steps },
  });
  const res = await d.request('POST', `/daemon/server/${id}/install?wait=true`, { token });
  const console = await d.request('GET', `/daemon/server/${id}/console`, { token });
  return { status: res.status, logs: ((await console.json()) as { logs: string }).logs };
}

describe('archive and extract processors', () => {
  it('archives a folder, then extracts it elsewhere', async () => {
    const { status, logs } = await install('arc1', [
      { type: 'writefile', target: 'world/level.dat', text: 'level' },
      { type: 'archive', source: 'world', destination: 'backup.zip' },
      { type: 'archive', source: ['world'], destination: 'backup.zip' },
      { type: 'extract', source: 'backup (2).zip', destination: 'restored' },
    ]);
    expect(status, logs).toBe(204);
    expect(logs).toContain('into backup (2).zip');
    const root = join(d.config.serversDir ?? '', 'arc1');
    expect(await readFile(join(root, 'restored', 'world', 'level.dat'), 'utf8')).toBe('level');
  });

  it('refuses paths outside the server folder', async () => {
    const { status, logs } = await install('arc2', [{ type: 'extract', source: '../arc1/backup.zip' }]);
    expect(status).toBe(400);
    expect(logs).toMatch(/not allowed|\.\./);
  });
});
