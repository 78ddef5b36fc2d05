/**
 * SFTP attribute changes in the activity log (docs/activity.md § Node events): OpenSSH's `sftp` against a real
 * daemon — `chmod` (SETSTAT on a path) and `put -p` (the upload's mode and times, FSETSTAT on the open handle or
 * SETSTAT after it, as the client chooses) — reach the panel through the node outbox as `sftp.file.setstat`
 * entries naming the SFTP user, the path and what was set; never file contents.
 */
import { chmodSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry, ActivityPage } from '@hearth/contract';
import { call } from '../apps/panel/test/helpers/app';
import { filesFixture, type FilesFixture } from './helpers/files-fixture';
import { runSftp } from './helpers/sftp-client';

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('SFTP setstat in the activity log', () => {
  let f: FilesFixture;
  let local: string;

  beforeAll(async () => {
    f = await filesFixture('sqlite');
    local = mkdtempSync(join(tmpdir(), 'hearth-setstat-'));
  });
  afterAll(async () => {
    await f?.close();
    rmSync(local, { recursive: true, force: true });
  });

  it('records chmod and the attributes of put -p with the user, the path and what was set', async () => {
    const u = await f.user({ sftpServer: true, viewServerFiles: true, putServerFiles: true });
    const file = join(local, 'kept.txt');
    writeFileSync(file, 'secret contents never logged');
    chmodSync(file, 0o640);
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    const r = await runSftp(
      f.sftpPort,
      `${u.email}#${f.serverId}`,
      u.password,
      ['put -p kept.txt /kept.txt', 'chmod 600 /kept.txt'],
      { cwd: local },
    );
    expect(r.code, r.stderr).toBe(0);

    const setstats = await waitFor('the setstat entries', async () => {
      const res = await call(f.t, 'GET', `/api/activity?action=sftp.file.setstat&limit=50`, {
        token: f.admin.token,
      });
      const entries = res.json<ActivityPage>().entries;
      return entries.some((e) => e.details.mode === '0600') && entries.some((e) => e.details.times === true)
        ? entries
        : undefined;
    });
    const chmod = setstats.find((e) => e.details.mode === '0600') as ActivityEntry;
    expect(chmod).toMatchObject({
      actorType: 'user',
      actorLabel: u.email,
      ip: '127.0.0.1',
      serverId: f.serverId,
      details: { path: '/kept.txt', mode: '0600' },
    });
    // put -p sets the local file's mode and times on the upload.
    const kept = setstats.find((e) => e.details.times === true) as ActivityEntry;
    expect(kept.details).toMatchObject({ path: '/kept.txt', mode: '0640' });
    expect(JSON.stringify(setstats)).not.toContain('secret contents');
  });
});
