/**
 * Faults with a real restic (docs/backups.md § Faults): the node's disk filling up during a restore (the server
 * folder on a small tmpfs) leaves the folder unchanged; a full destination (the repository on a small tmpfs) is
 * ErrBackupDestinationFull with the earlier snapshot intact; a tampered repository is reported by `check`.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupCheckResult, BackupNodeStatus } from '@hearth/contract';
import { backupNow, errorCode, json, listBackups, serverWithFiles } from '../helpers/backups';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon';

/** A tmpfs of `size` (as root): a filesystem that fills up for real. */
function smallFilesystem(size: string): { dir: string; unmount: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-small-fs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  return { dir, unmount: () => execFileSync('umount', ['-l', dir]) };
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('the node’s disk fills up during a restore', () => {
  let d: TestDaemon;
  let fs: ReturnType<typeof smallFilesystem>;
  let root: string;

  beforeAll(async () => {
    fs = smallFilesystem('12m');
    d = await startTestDaemon({ serversDir: fs.dir });
    root = await serverWithFiles(d, 'full', { 'keep.txt': 'before' });
    writeFileSync(join(root, 'world.bin'), randomBytes(7 * 1024 * 1024));
  }, 60_000);
  afterAll(async () => {
    await d?.close();
    fs?.unmount();
  });

  it('answers ErrRestoreNoSpace and leaves the server folder exactly as it was', async () => {
    const id = await backupNow(d, 'full');
    await writeFile(join(root, 'keep.txt'), 'changed after the backup');
    const before = files(root);
    const world = readFileSync(join(root, 'world.bin'));
    const res = await d.request('POST', `/daemon/server/full/backup/${id}/restore`, {
      token: await d.admin(),
      body: {},
    });
    expect(res.status).toBe(507);
    expect(await errorCode(res)).toBe('ErrRestoreNoSpace');
    expect(files(root)).toEqual(before);
    expect(await readFile(join(root, 'keep.txt'), 'utf8')).toBe('changed after the backup');
    expect(readFileSync(join(root, 'world.bin')).equals(world)).toBe(true);
    // No staging folder is left behind beside the server folder.
    expect(readdirSync(fs.dir).filter((n) => n.startsWith('.restore-'))).toEqual([]);
    // A restore that fits still works: one small file.
    const small = await d.request('POST', `/daemon/server/full/backup/${id}/restore`, {
      token: await d.admin(),
      body: { paths: ['keep.txt'] },
    });
    expect(small.status).toBe(200);
    expect(await readFile(join(root, 'keep.txt'), 'utf8')).toBe('before');
  });
});

describe('a full destination', () => {
  let d: TestDaemon;
  let fs: ReturnType<typeof smallFilesystem>;
  let root: string;

  beforeAll(async () => {
    fs = smallFilesystem('4m');
    d = await startTestDaemon();
    const set = await d.request('PUT', '/daemon/backups/destination', {
      token: await d.admin(),
      body: { type: 'local', path: join(fs.dir, 'repository') },
    });
    expect(set.status, await set.clone().text()).toBe(204);
    root = await serverWithFiles(d, 'big', { 'small.txt': 'small' });
  }, 60_000);
  afterAll(async () => {
    await d?.close();
    fs?.unmount();
  });

  it('answers ErrBackupDestinationFull; the earlier snapshot stays listed and restorable', async () => {
    const first = await backupNow(d, 'big');
    writeFileSync(join(root, 'huge.bin'), randomBytes(8 * 1024 * 1024));
    const res = await d.request('POST', '/daemon/server/big/backup', { token: await d.admin() });
    expect(res.status).toBe(507);
    expect(await errorCode(res)).toBe('ErrBackupDestinationFull');
    expect(readFileSync(join(root, 'huge.bin')).length).toBe(8 * 1024 * 1024);
    expect((await listBackups(d, 'big')).backups.map((b) => b.id)).toEqual([first]);
    await rm(join(root, 'huge.bin'));
    await writeFile(join(root, 'small.txt'), 'changed');
    const restored = await d.request('POST', `/daemon/server/big/backup/${first}/restore`, {
      token: await d.admin(),
      body: { paths: ['small.txt'] },
    });
    expect(restored.status).toBe(200);
    expect(await readFile(join(root, 'small.txt'), 'utf8')).toBe('small');
  });
});

describe('a tampered repository', () => {
  let d: TestDaemon;

  beforeAll(async () => {
    d = await startTestDaemon({ backups: { checkSubset: '100%' } });
    await serverWithFiles(d, 'tamper', { 'a.bin': randomBytes(200_000).toString('base64') });
  }, 60_000);
  afterAll(async () => d?.close());

  it('check passes on a sound repository and reports the damage after a pack is altered', async () => {
    await backupNow(d, 'tamper');
    const admin = await d.admin();
    const sound = await json<BackupCheckResult>(
      await d.request('POST', '/daemon/backups/check', { token: admin }),
    );
    expect(sound.ok).toBe(true);
    const dataDir = join(d.dataDir, 'backups', 'repository', 'data');
    const pack = files(dataDir)
      .map((name) => join(dataDir, name))
      .find((path) => /[0-9a-f]{64}$/.test(path));
    if (!pack) throw new Error('no pack file in the repository');
    const bytes = readFileSync(pack);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
    writeFileSync(pack, bytes);
    const damaged = await json<BackupCheckResult>(
      await d.request('POST', '/daemon/backups/check', { token: admin }),
    );
    expect(damaged.ok).toBe(false);
    expect(damaged.error).toBeTruthy();
    const status = await json<BackupNodeStatus>(await d.request('GET', '/daemon/backups', { token: admin }));
    expect(status.lastCheck).toMatchObject({ ok: false });
    expect(status.nextCheck).toBeGreaterThan(Date.now());
  });
});
