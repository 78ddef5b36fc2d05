/**
 * The daemon SIGKILLed in the middle of a backup and of a restore (docs/backups.md § Faults): restic goes with
 * it (no orphan keeps writing), the repository stays consistent (`check` passes once the next daemon has cleared
 * the stale lock), the next backup works, and a restore cut short never replaces the server folder: the next
 * daemon removes its staging folder and the folder is as it was.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupCheckResult, BackupList } from '@hearth/contract';
import { fakeGameDefinition } from '../helpers/test-daemon';
import { waitFor } from '../helpers/poll';
import { DaemonChild } from '../supervision/daemon-child';

const ID = 'killed';

/** Pids of restic processes working on this data directory's repository. */
async function resticPids(dataDir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const environ = await readFile(`/proc/${name}/environ`, 'utf8').catch(() => '');
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.startsWith('restic\0') || cmdline.includes('/restic\0')) {
      if (environ.includes(dataDir)) pids.push(Number(name));
    }
  }
  return pids;
}

/** Bytes of files under `dir` (0 when it does not exist). */
function bytesUnder(dir: string): number {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    try {
      total += readFileSync(join(dir, name)).length;
    } catch {
      // a folder, or gone meanwhile
    }
  }
  return total;
}

describe('the daemon SIGKILLed mid-operation', { timeout: 240_000 }, () => {
  let d: DaemonChild;
  let root: string;
  let first = '';

  beforeAll(async () => {
    d = await DaemonChild.create();
    await d.start();
    expect((await d.request('PUT', `/daemon/server/${ID}`, fakeGameDefinition())).status).toBe(200);
    root = d.serverDirOf(ID);
    writeFileSync(join(root, 'marker.txt'), 'first');
    const res = await d.request('POST', `/daemon/server/${ID}/backup`);
    expect(res.status).toBe(200);
    first = ((await res.json()) as { id: string }).id;
    // Enough incompressible data that a backup and a restore are still running when the daemon is killed.
    for (let i = 0; i < 6; i += 1) writeFileSync(join(root, `world-${i}.bin`), randomBytes(64 * 1024 * 1024));
  }, 120_000);
  afterAll(async () => d?.cleanup());

  it('mid-backup: restic ends with it, the repository checks clean, the next backup works', async () => {
    const data = join(d.dataDir, 'backups', 'repository', 'data');
    const before = bytesUnder(data);
    void d.request('POST', `/daemon/server/${ID}/backup`).catch(() => undefined);
    await waitFor(
      () => bytesUnder(data) > before + 1024 * 1024,
      'restic to have written part of the backup',
      {
        timeoutMs: 60_000,
      },
    );
    expect((await resticPids(d.dataDir)).length).toBeGreaterThan(0);
    await d.stop('SIGKILL');
    await waitFor(async () => (await resticPids(d.dataDir)).length === 0, 'restic to end with the daemon');
    // The killed backup's lock is still in the repository: stale, its process gone.
    const locks = join(d.dataDir, 'backups', 'repository', 'locks');
    expect(readdirSync(locks).length).toBeGreaterThan(0);
    const tmp = join(d.dataDir, 'backups', 'tmp');
    await d.start();
    // restic's temporary pack files of the killed backup are gone too.
    expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
    const list = (await (await d.request('GET', `/daemon/server/${ID}/backup`)).json()) as BackupList;
    expect(list.backups.map((b) => b.id)).toEqual([first]);
    const check = (await (await d.request('POST', '/daemon/backups/check')).json()) as BackupCheckResult;
    expect(check).toMatchObject({ ok: true });
    expect(readdirSync(locks)).toEqual([]);
    const next = await d.request('POST', `/daemon/server/${ID}/backup`);
    expect(next.status, await next.clone().text()).toBe(200);
  });

  it('mid-restore: the folder is never replaced; the next daemon removes the half-restore', async () => {
    const list = (await (await d.request('GET', `/daemon/server/${ID}/backup`)).json()) as BackupList;
    const latest = list.backups[0]?.id ?? '';
    writeFileSync(join(root, 'marker.txt'), 'changed after the backups');
    void d.request('POST', `/daemon/server/${ID}/backup/${latest}/restore`, {}).catch(() => undefined);
    const serversDir = join(d.dataDir, 'servers');
    const staging = () => readdirSync(serversDir).filter((n) => n.startsWith(`.restore-${ID}-`));
    await waitFor(
      () => staging().some((n) => bytesUnder(join(serversDir, n)) > 8 * 1024 * 1024),
      'restic to have written part of the restore',
      { timeoutMs: 60_000 },
    );
    expect((await resticPids(d.dataDir)).length).toBeGreaterThan(0);
    await d.stop('SIGKILL');
    await waitFor(async () => (await resticPids(d.dataDir)).length === 0, 'restic to end with the daemon');
    expect(readFileSync(join(root, 'marker.txt'), 'utf8')).toBe('changed after the backups');
    await d.start();
    expect(staging()).toEqual([]);
    expect(readFileSync(join(root, 'marker.txt'), 'utf8')).toBe('changed after the backups');
    const again = await d.request('POST', `/daemon/server/${ID}/backup/${first}/restore`, {
      paths: ['marker.txt'],
    });
    expect(again.status, await again.clone().text()).toBe(200);
    expect(readFileSync(join(root, 'marker.txt'), 'utf8')).toBe('first');
  });
});
