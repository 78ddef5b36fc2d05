/**
 * The four destinations with a real restic (docs/backups.md § Destinations): the embedded local folder (the other
 * tests), OpenSSH SFTP, an S3-compatible server (s3rver) and restic's REST protocol (rclone). For each: an admin
 * sets it (secrets never answered back), a backup and a restore go through it, and when it becomes unreachable a
 * backup fails with ErrBackupDestinationUnreachable while the server folder and the earlier snapshot stay intact.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupNodeStatus } from '@hearth/contract';
import { backupNow, errorCode, json, listBackups, serverWithFiles } from '../helpers/backups';
import {
  restDestination,
  s3Destination,
  sftpDestination,
  type Destination,
} from '../helpers/backup-destinations';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon';

const kinds = [
  ['sftp', sftpDestination],
  ['s3', s3Destination],
  ['rest', restDestination],
] as const;

describe('a local destination', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await startTestDaemon();
  });
  afterAll(async () => d?.close());

  it('must be an absolute folder outside the servers’ folders; SFTP fields cannot carry ssh options', async () => {
    const admin = await d.admin();
    for (const path of [
      'relative/repo',
      join(d.config.serversDir ?? '', 'x', 'repo'),
      d.config.serversDir ?? '',
    ]) {
      const res = await d.request('PUT', '/daemon/backups/destination', {
        token: admin,
        body: { type: 'local', path },
      });
      expect(res.status, path).toBe(400);
      expect(await errorCode(res)).toBe('ErrFieldInvalid');
    }
    // SFTP fields become words of the ssh command: no options, no second known_hosts line.
    const sftp = {
      type: 'sftp',
      host: 'example.org',
      user: 'u',
      path: '/r',
      hostKey: 'ssh-ed25519 AAAAC3Nz',
    };
    for (const bad of [
      { host: '-oProxyCommand=touch /tmp/x' },
      { host: 'a b' },
      { user: '-F/etc/x' },
      { hostKey: 'ssh-ed25519 AAAA\n* ssh-rsa BBBB' },
    ]) {
      const res = await d.request('PUT', '/daemon/backups/destination', {
        token: admin,
        body: { ...sftp, ...bad },
      });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    const elsewhere = join(d.dataDir, 'elsewhere');
    const ok = await d.request('PUT', '/daemon/backups/destination', {
      token: admin,
      body: { type: 'local', path: elsewhere },
    });
    expect(ok.status).toBe(204);
  });
});

// Minutes, not the unit default: at load ~20 on 2 cores starting sshd, a daemon and a restic run each took
// tens of seconds (the waits are for answers, the caps only stop a hang).
describe.each(kinds)('backups to %s', { timeout: 180_000 }, (kind, make) => {
  let d: TestDaemon;
  let destination: Destination;
  let root: string;

  beforeAll(async () => {
    destination = await make();
    d = await startTestDaemon();
    root = await serverWithFiles(d, 'dest', { 'world/level.dat': `level on ${kind}`, 'a.txt': 'a' });
  }, 240_000);
  afterAll(async () => {
    await d?.close();
    await destination?.close();
  });

  it('is set by an admin, and answered without its secrets', async () => {
    const admin = await d.admin();
    const refused = await d.request('PUT', '/daemon/backups/destination', {
      token: await d.user('dest', ['viewServerBackups', 'createServerBackups']),
      body: destination.body,
    });
    expect(refused.status).toBe(403);
    const set = await d.request('PUT', '/daemon/backups/destination', {
      token: admin,
      body: destination.body,
    });
    expect(set.status, await set.clone().text()).toBe(204);
    const status = await json<BackupNodeStatus>(await d.request('GET', '/daemon/backups', { token: admin }));
    expect(status.destination.type).toBe(kind);
    expect(status.restic).toMatch(/^0\.\d+/);
    const secretKeys = ['privateKey', 'secretAccessKey', 'password'].filter((k) => k in destination.body);
    expect(status.destination.secrets).toEqual(secretKeys);
    for (const key of secretKeys) expect(status.destination.settings).not.toHaveProperty(key);
    // The unique secrets (a private key, a password) appear nowhere in the answer.
    const text = JSON.stringify(status);
    for (const key of ['privateKey', 'password'].filter((k) => k in destination.body))
      expect(text).not.toContain(String(destination.body[key]).slice(0, 40));
  });

  it('backs up and restores through it', async () => {
    const id = await backupNow(d, 'dest');
    await writeFile(join(root, 'world/level.dat'), 'overwritten');
    const res = await d.request('POST', `/daemon/server/dest/backup/${id}/restore`, {
      token: await d.admin(),
      body: { paths: ['world'] },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await readFile(join(root, 'world/level.dat'), 'utf8')).toBe(`level on ${kind}`);
  });

  it('unreachable: a catalogued error, the server folder untouched, the earlier snapshot intact', async () => {
    const before = (await listBackups(d, 'dest')).backups.map((b) => b.id);
    await destination.stop();
    try {
      await writeFile(join(root, 'b.txt'), 'during the outage');
      const res = await d.request('POST', '/daemon/server/dest/backup', { token: await d.admin() });
      expect(res.status).toBe(502);
      expect(await errorCode(res)).toBe('ErrBackupDestinationUnreachable');
      expect(await readFile(join(root, 'b.txt'), 'utf8')).toBe('during the outage');
      expect(await readFile(join(root, 'world/level.dat'), 'utf8')).toBe(`level on ${kind}`);
    } finally {
      await destination.start();
    }
    expect((await listBackups(d, 'dest')).backups.map((b) => b.id)).toEqual(before);
    await backupNow(d, 'dest');
    expect((await listBackups(d, 'dest')).backups).toHaveLength(before.length + 1);
  });
});
