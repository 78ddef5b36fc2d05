/**
 * A server's backup policy and what follows from it, with a real restic (docs/backups.md): hooks around a
 * backup of the running server (the console lines sent, the awaited line, the timeout), a running server without
 * hooks snapshot "as-is", retention after each backup sparing locked snapshots, the admin's limits, who may change
 * which part of the policy, restores into another server (admins only), and restored files owned by the server's
 * own uid.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupDetails } from '@hearth/contract';
import { parseDaemonMessage } from '@hearth/contract/daemon-messages';
import { backupNow, errorCode, json, listBackups, serverWithFiles } from '../helpers/backups';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon';

const ECHO_HOOKS = {
  pre: ['save-now'],
  waitFor: 'echo: save-now',
  post: ['save-resume'],
  timeoutSeconds: 20,
};

describe('backup policy', () => {
  let d: TestDaemon;
  let root: string;

  beforeAll(async () => {
    d = await startTestDaemon();
    root = await serverWithFiles(d, 'pol', { 'a.txt': 'a' });
    await serverWithFiles(d, 'clone', { 'clone.txt': 'the clone target' });
  }, 60_000);
  afterAll(async () => d?.close());

  const setPolicy = async (body: unknown, token?: string) =>
    d.request('PUT', '/daemon/server/pol/backup-policy', { token: token ?? (await d.admin()), body });
  const consoleText = async () =>
    (
      await json<{ logs: string }>(
        await d.request('GET', '/daemon/server/pol/console', { token: await d.admin() }),
      )
    ).logs;

  it('a running server: hooks are sent around the snapshot; without hooks it is marked as-is', async () => {
    const admin = await d.admin();
    expect((await d.request('POST', '/daemon/server/pol/start?wait=true', { token: admin })).status).toBe(
      204,
    );
    const asIs = await backupNow(d, 'pol');
    expect((await listBackups(d, 'pol')).backups.find((b) => b.id === asIs)?.asIs).toBe(true);
    expect((await setPolicy({ hooks: ECHO_HOOKS })).status).toBe(204);
    const hooked = await backupNow(d, 'pol');
    const details = await json<BackupDetails>(
      await d.request('GET', `/daemon/server/pol/backup/${hooked}`, { token: admin }),
    );
    expect(details).toMatchObject({ asIs: false, hooks: 'ran' });
    const text = await consoleText();
    expect(text.indexOf('echo: save-now')).toBeGreaterThan(-1);
    expect(text.indexOf('echo: save-resume')).toBeGreaterThan(text.indexOf('echo: save-now'));
    // The backup's own lines carry their code after the English text (issue 16 item 13).
    const coded = text.split('\n').flatMap((l) => parseDaemonMessage(l) ?? []);
    expect(coded).toContainEqual({
      code: 'backup.askingSave',
      params: {},
      text: '[DAEMON] Backup: asking the server to save',
    });
    expect(coded).toContainEqual({
      code: 'backup.started',
      params: { trigger: 'manual' },
      text: '[DAEMON] Backup started (manual)',
    });
    expect(coded).toContainEqual({
      code: 'backup.written',
      params: { id: hooked.slice(0, 8) },
      text: `[DAEMON] Backup ${hooked.slice(0, 8)} written`,
    });
  });

  it('a line that never comes: ErrBackupHookTimeout, no snapshot, the post lines still sent', async () => {
    const before = (await listBackups(d, 'pol')).backups.length;
    const hooks = { pre: ['quiet'], waitFor: 'never printed', post: ['after-timeout'], timeoutSeconds: 1 };
    expect((await setPolicy({ hooks })).status).toBe(204);
    const res = await d.request('POST', '/daemon/server/pol/backup', { token: await d.admin() });
    expect(res.status).toBe(504);
    expect(await errorCode(res)).toBe('ErrBackupHookTimeout');
    expect((await listBackups(d, 'pol')).backups).toHaveLength(before);
    expect(await consoleText()).toContain('echo: after-timeout');
    expect((await listBackups(d, 'pol')).last).toMatchObject({
      ok: false,
      error: { code: 'ErrBackupHookTimeout' },
    });
    await setPolicy({ hooks: null });
    expect(
      (await d.request('POST', '/daemon/server/pol/kill?wait=true', { token: await d.admin() })).status,
    ).toBe(204);
  });

  it('retention after each backup keeps the last N, and every locked snapshot', async () => {
    const admin = await d.admin();
    const oldest = (await listBackups(d, 'pol')).backups.at(-1)?.id ?? '';
    await d.request('PUT', `/daemon/server/pol/backup/${oldest}/lock`, {
      token: admin,
      body: { locked: true },
    });
    expect((await setPolicy({ retention: { keepLast: 2 } })).status).toBe(204);
    await writeFile(join(root, 'a.txt'), 'a2');
    const newest = await backupNow(d, 'pol');
    const ids = (await listBackups(d, 'pol')).backups.map((b) => b.id);
    expect(ids).toHaveLength(3);
    expect(ids[0]).toBe(newest);
    expect(ids).toContain(oldest);
  });

  it('limits: too many snapshots, too soon after a manual one; only admins set them', async () => {
    const user = await d.user('pol', ['viewServerBackups', 'createServerBackups', 'deleteServerBackups']);
    const refused = await setPolicy({ retention: { keepLast: 2 }, limits: { maxSnapshots: 1 } }, user);
    expect(refused.status).toBe(403);
    expect(await errorCode(refused)).toBe('ErrNoPermission');
    expect((await setPolicy({ retention: { keepLast: 2 }, limits: { maxSnapshots: 3 } })).status).toBe(204);
    const full = await d.request('POST', '/daemon/server/pol/backup', { token: user });
    expect(full.status).toBe(409);
    expect(await errorCode(full)).toBe('ErrBackupLimitReached');
    // The last manual backup was moments ago (retention test above).
    expect(
      (await setPolicy({ retention: { keepLast: 2 }, limits: { minIntervalSeconds: 3600 } })).status,
    ).toBe(204);
    const soon = await d.request('POST', '/daemon/server/pol/backup', { token: user });
    expect(soon.status).toBe(429);
    const body = (await soon.json()) as { error: { code: string; metadata: { seconds: number } } };
    expect(body.error.code).toBe('ErrBackupTooSoon');
    expect(body.error.metadata.seconds).toBeGreaterThan(3000);
    expect((await setPolicy({ retention: { keepLast: 2 }, limits: { maxRepositoryBytes: 1 } })).status).toBe(
      204,
    );
    const bytes = await d.request('POST', '/daemon/server/pol/backup', { token: await d.admin() });
    expect(bytes.status).toBe(409);
    expect(await errorCode(bytes)).toBe('ErrBackupLimitReached');
    expect((await setPolicy({ retention: { keepLast: 2 } })).status).toBe(204);
  });

  it('who changes what: retention needs the delete flag, hooks the console flag', async () => {
    const creator = await d.user('pol', ['viewServerBackups', 'createServerBackups']);
    const retention = await setPolicy({ retention: { keepLast: 5 } }, creator);
    expect(retention.status).toBe(403);
    expect(await errorCode(retention)).toBe('ErrMissingScope');
    const hooks = await setPolicy({ retention: { keepLast: 2 }, hooks: ECHO_HOOKS }, creator);
    expect(hooks.status).toBe(403);
    const schedule = await setPolicy({ retention: { keepLast: 2 }, schedule: '0 3 * * *' }, creator);
    expect(schedule.status).toBe(204);
    const badCron = await setPolicy({ retention: { keepLast: 2 }, schedule: '61 * * * *' });
    expect(badCron.status).toBe(400);
    expect(await errorCode(badCron)).toBe('ErrInvalidCron');
    const list = await listBackups(d, 'pol');
    expect(list.nextScheduled).toBeGreaterThan(0);
  });

  it('restores into another server only for admins (a clone), with files owned by that server', async () => {
    const [latest] = (await listBackups(d, 'pol')).backups;
    const user = await d.user('pol', ['viewServerBackups', 'restoreServerBackups']);
    const refused = await d.request('POST', `/daemon/server/pol/backup/${latest?.id}/restore`, {
      token: user,
      body: { intoServer: 'clone' },
    });
    expect(refused.status).toBe(403);
    const cloned = await d.request('POST', `/daemon/server/pol/backup/${latest?.id}/restore`, {
      token: await d.admin(),
      body: { intoServer: 'clone' },
    });
    expect(cloned.status, await cloned.clone().text()).toBe(200);
    const cloneRoot = join(d.config.serversDir ?? '', 'clone');
    expect(readFileSync(join(cloneRoot, 'a.txt'), 'utf8')).toBe('a2');
    const definition = JSON.parse(readFileSync(join(d.config.serversDir ?? '', 'clone.json'), 'utf8')) as {
      runAs: { uid: number; gid: number } | null;
    };
    if (process.getuid?.() === 0) {
      if (!definition.runAs) throw new Error('a root daemon gives every server its own uid');
      expect(lstatSync(join(cloneRoot, 'a.txt')).uid).toBe(definition.runAs.uid);
      expect(lstatSync(cloneRoot)).toMatchObject({ uid: definition.runAs.uid });
      expect(lstatSync(cloneRoot).mode & 0o777).toBe(0o700);
    }
  });
});
