/**
 * Backups against a real restic and the embedded local repository (docs/backups.md): create, list with figures,
 * browse, download as .tar.gz and .zip (streamed), lock against deletion, partial and whole restores that replace
 * files only when complete, and the refusals: another server's snapshot, `..`, a path the snapshot lacks (or
 * reached through a symlink of the snapshot), a restore into a running server, a second operation while one
 * runs; chosen paths with restic's pattern characters are restored literally.
 */
import { lstat, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupDetails, BackupTree } from '@hearth/contract';
import { backupNow, errorCode, json, listBackups, serverWithFiles } from '../helpers/backups';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon';
import { waitFor } from '../helpers/poll';

describe('backups on the local repository (real restic)', () => {
  let d: TestDaemon;
  let root: string;
  let first: string;

  beforeAll(async () => {
    d = await startTestDaemon();
    root = await serverWithFiles(d, 'alpha', {
      'world/level.dat': 'level one',
      'world/region/r.0.0.mca': 'x'.repeat(100_000),
      'server.properties': 'motd=hello\n',
    });
    await serverWithFiles(d, 'beta', { 'other.txt': 'beta data' });
    first = await backupNow(d, 'alpha');
  }, 120_000);
  afterAll(async () => d?.close());

  it('lists the snapshot with its figures, trigger and who asked', async () => {
    const list = await listBackups(d, 'alpha');
    expect(list.backups).toHaveLength(1);
    const [backup] = list.backups;
    expect(backup).toMatchObject({ id: first, trigger: 'manual', by: 'user-1', locked: false, asIs: false });
    expect(backup?.fileCount).toBe(3);
    expect(backup?.totalSize).toBe(100_000 + 'level one'.length + 'motd=hello\n'.length);
    expect(backup?.sizeAdded).toBeGreaterThan(0);
    expect(list.last).toMatchObject({ kind: 'backup', ok: true, backupId: first });
    expect((await listBackups(d, 'beta')).backups).toEqual([]);
  });

  it('details and tree: folders first, paths relative to the server folder', async () => {
    const details = await json<BackupDetails>(
      await d.request('GET', `/daemon/server/alpha/backup/${first.slice(0, 8)}`, { token: await d.admin() }),
    );
    expect(details).toMatchObject({ id: first, hooks: 'none' });
    const top = await json<BackupTree>(
      await d.request('GET', `/daemon/server/alpha/backup/${first}/tree`, { token: await d.admin() }),
    );
    expect(top.entries.map((e) => [e.name, e.type])).toEqual([
      ['world', 'dir'],
      ['server.properties', 'file'],
    ]);
    const world = await json<BackupTree>(
      await d.request('GET', `/daemon/server/alpha/backup/${first}/tree?path=world`, {
        token: await d.admin(),
      }),
    );
    expect(world.entries.map((e) => e.path)).toEqual(['world/region', 'world/level.dat']);
  });

  it('refuses another server’s snapshot (404), `..` (400) and a path the snapshot lacks (404)', async () => {
    const admin = await d.admin();
    const foreign = await d.request('GET', `/daemon/server/beta/backup/${first}`, { token: admin });
    expect(foreign.status).toBe(404);
    expect(await errorCode(foreign)).toBe('ErrBackupNotFound');
    const restoreForeign = await d.request('POST', `/daemon/server/beta/backup/${first}/restore`, {
      token: admin,
      body: {},
    });
    expect(restoreForeign.status).toBe(404);
    const dotdot = await d.request('GET', `/daemon/server/alpha/backup/${first}/tree?path=world/../../beta`, {
      token: admin,
    });
    expect(dotdot.status).toBe(400);
    expect(await errorCode(dotdot)).toBe('ErrBackupPathInvalid');
    const restoreDots = await d.request('POST', `/daemon/server/alpha/backup/${first}/restore`, {
      token: admin,
      body: { paths: ['../beta/other.txt'] },
    });
    expect(restoreDots.status).toBe(400);
    expect(await errorCode(restoreDots)).toBe('ErrBackupPathInvalid');
    const missing = await d.request('GET', `/daemon/server/alpha/backup/${first}/download?path=nope.txt`, {
      token: admin,
    });
    expect(missing.status).toBe(404);
    expect(await errorCode(missing)).toBe('ErrBackupPathNotFound');
    const malformed = await d.request('GET', '/daemon/server/alpha/backup/not-an-id', { token: admin });
    expect(malformed.status).toBe(404);
  });

  it('downloads a folder and a single file as .tar.gz and .zip', async () => {
    const admin = await d.admin();
    const whole = await d.request('GET', `/daemon/server/alpha/backup/${first}/download`, { token: admin });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('application/gzip');
    const tar = gunzipSync(Buffer.from(await whole.arrayBuffer())).toString('latin1');
    expect(tar).toContain('level one');
    expect(tar).toContain('motd=hello');
    const zip = await d.request(
      'GET',
      `/daemon/server/alpha/backup/${first}/download?path=world&format=zip`,
      { token: admin },
    );
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const zipBytes = Buffer.from(await zip.arrayBuffer());
    expect(zipBytes.subarray(0, 2).toString()).toBe('PK');
    expect(zipBytes.toString('latin1')).toContain('level.dat');
    const one = await d.request('GET', `/daemon/server/alpha/backup/${first}/download?path=world/level.dat`, {
      token: admin,
    });
    expect(one.headers.get('content-disposition')).toContain('level.dat.tar.gz');
    const single = gunzipSync(Buffer.from(await one.arrayBuffer()));
    expect(single.subarray(0, 9).toString()).toBe('level.dat');
    expect(single.subarray(512, 521).toString()).toBe('level one');
  });

  it('a locked snapshot cannot be deleted until unlocked', async () => {
    const admin = await d.admin();
    const second = await backupNow(d, 'alpha');
    expect(
      (
        await d.request('PUT', `/daemon/server/alpha/backup/${second}/lock`, {
          token: admin,
          body: { locked: true },
        })
      ).status,
    ).toBe(204);
    expect((await listBackups(d, 'alpha')).backups.find((b) => b.id === second)?.locked).toBe(true);
    const refused = await d.request('DELETE', `/daemon/server/alpha/backup/${second}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(await errorCode(refused)).toBe('ErrBackupLocked');
    await d.request('PUT', `/daemon/server/alpha/backup/${second}/lock`, {
      token: admin,
      body: { locked: false },
    });
    expect(
      (await d.request('DELETE', `/daemon/server/alpha/backup/${second}`, { token: admin })).status,
    ).toBe(204);
    expect((await listBackups(d, 'alpha')).backups.map((b) => b.id)).toEqual([first]);
  });

  it('restores selected paths, then the whole folder; files added since go with a whole restore', async () => {
    const admin = await d.admin();
    await writeFile(join(root, 'world/level.dat'), 'changed');
    await writeFile(join(root, 'server.properties'), 'motd=changed\n');
    await writeFile(join(root, 'new.txt'), 'made later');
    const partial = await d.request('POST', `/daemon/server/alpha/backup/${first}/restore`, {
      token: admin,
      body: { paths: ['world/level.dat'] },
    });
    expect(partial.status, await partial.clone().text()).toBe(200);
    expect(await readFile(join(root, 'world/level.dat'), 'utf8')).toBe('level one');
    expect(await readFile(join(root, 'server.properties'), 'utf8')).toBe('motd=changed\n');
    const whole = await d.request('POST', `/daemon/server/alpha/backup/${first}/restore`, {
      token: admin,
      body: {},
    });
    expect(whole.status).toBe(200);
    expect(await readFile(join(root, 'server.properties'), 'utf8')).toBe('motd=hello\n');
    await expect(readFile(join(root, 'new.txt'))).rejects.toThrow(/ENOENT/);
    expect((await readFile(join(root, 'world/region/r.0.0.mca'))).length).toBe(100_000);
  });

  it('a symlink planted in the folder is replaced, never followed out of it', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'hearth-outside-'));
    await writeFile(join(outside, 'level.dat'), 'outside the server');
    await rm(join(root, 'world'), { recursive: true });
    await symlink(outside, join(root, 'world'));
    const res = await d.request('POST', `/daemon/server/alpha/backup/${first}/restore`, {
      token: await d.admin(),
      body: { paths: ['world/level.dat'] },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await readFile(join(outside, 'level.dat'), 'utf8')).toBe('outside the server');
    expect((await lstat(join(root, 'world'))).isDirectory()).toBe(true);
    expect(await readFile(join(root, 'world/level.dat'), 'utf8')).toBe('level one');
    await rm(outside, { recursive: true, force: true });
  });

  it('refuses a restore into a running server, and a second operation while one runs', async () => {
    const admin = await d.admin();
    expect((await d.request('POST', '/daemon/server/alpha/start?wait=true', { token: admin })).status).toBe(
      204,
    );
    const running = await d.request('POST', `/daemon/server/alpha/backup/${first}/restore`, {
      token: admin,
      body: {},
    });
    expect(running.status).toBe(409);
    expect(await errorCode(running)).toBe('ErrRestoreServerRunning');
    expect((await d.request('POST', '/daemon/server/alpha/stop?wait=true', { token: admin })).status).toBe(
      204,
    );
    // A backup and a restore at once: one of them is refused with ErrBackupBusy, never queued.
    await writeFile(join(root, 'big.bin'), Buffer.alloc(30 * 1024 * 1024, 7));
    const [a, b] = await Promise.all([
      d.request('POST', '/daemon/server/alpha/backup', { token: admin }),
      new Promise((r) => setTimeout(r, 50)).then(() =>
        d.request('POST', `/daemon/server/alpha/backup/${first}/restore`, { token: admin, body: {} }),
      ),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    expect(await errorCode(a.status === 409 ? a : b)).toBe('ErrBackupBusy');
    await rm(join(root, 'big.bin'), { force: true });
    await waitFor(async () => (await listBackups(d, 'alpha')).running === null, 'the operation to end');
  });

  it('a path the snapshot lacks, or reached through its symlink, is refused; pattern characters are literal', async () => {
    const admin = await d.admin();
    const outside = await mkdtemp(join(tmpdir(), 'hearth-outside-'));
    await writeFile(join(outside, 'secret.txt'), 'outside the server');
    const gamma = await serverWithFiles(d, 'gamma', {
      'a[1].txt': 'brackets',
      'a1.txt': 'plain one',
      'st*r.txt': 'star',
      'stXr.txt': 'x',
      'keep.txt': 'kept',
    });
    // In the snapshot, `link` is a symlink out of the server folder: `link/secret.txt` is not in the snapshot.
    await symlink(outside, join(gamma, 'link'));
    const snap = await backupNow(d, 'gamma');
    for (const name of ['a[1].txt', 'a1.txt', 'st*r.txt', 'stXr.txt', 'keep.txt'])
      await writeFile(join(gamma, name), 'changed');
    const restore = (paths: string[]) =>
      d.request('POST', `/daemon/server/gamma/backup/${snap}/restore`, { token: admin, body: { paths } });
    for (const paths of [['nope.txt'], ['keep.txt', 'nope/deeper.txt'], ['link/secret.txt']]) {
      const res = await restore(paths);
      expect(res.status, paths.join()).toBe(404);
      expect(await errorCode(res)).toBe('ErrBackupPathNotFound');
    }
    // Nothing of a refused restore reached the folder (keep.txt was chosen beside a missing path).
    expect(await readFile(join(gamma, 'keep.txt'), 'utf8')).toBe('changed');
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside the server');
    // restic's --include is a pattern: `a[1].txt` would match a1.txt and `st*r.txt` stXr.txt; each is literal here.
    const literal = await restore(['a[1].txt', 'st*r.txt']);
    expect(literal.status, await literal.clone().text()).toBe(200);
    expect(await readFile(join(gamma, 'a[1].txt'), 'utf8')).toBe('brackets');
    expect(await readFile(join(gamma, 'st*r.txt'), 'utf8')).toBe('star');
    expect(await readFile(join(gamma, 'a1.txt'), 'utf8')).toBe('changed');
    expect(await readFile(join(gamma, 'stXr.txt'), 'utf8')).toBe('changed');
    await rm(outside, { recursive: true, force: true });
  });
});
