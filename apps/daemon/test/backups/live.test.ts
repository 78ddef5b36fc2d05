/**
 * Backups seen live and on schedule (docs/backups.md § Progress, § Schedules): `backup-progress` and `backup-done`
 * reach the sockets whose token holds viewServerBackups and no other; the policy's schedule takes a backup when
 * the scheduler's clock crosses its due minute (a clock the test moves, as the task tests do), marked `schedule`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupNodeStatus } from '@hearth/contract';
import { backupNow, json, listBackups, serverWithFiles } from '../helpers/backups';
import { ManualClock } from '../helpers/manual-clock';
import { waitFor } from '../helpers/poll';
import { TestSocket } from '../helpers/socket';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon';

describe('backup events and schedules', () => {
  let d: TestDaemon;
  const clock = new ManualClock(Date.UTC(2030, 0, 1, 12, 0, 0));

  beforeAll(async () => {
    d = await startTestDaemon(
      { tasks: { timeZone: 'UTC' }, backups: { checkSchedule: '0 13 * * *', pruneSchedule: '0 14 * * *' } },
      { clock },
    );
    await serverWithFiles(d, 'live', { 'w.txt': 'x'.repeat(50_000) });
  }, 60_000);
  afterAll(async () => d?.close());

  it('progress and the result go to backup viewers only', async () => {
    const viewer = await TestSocket.open(d.url, 'live', await d.user('live', ['viewServerBackups']));
    const outsider = await TestSocket.open(d.url, 'live', await d.user('live', ['viewServerConsole']));
    try {
      const id = await backupNow(d, 'live');
      const done = await viewer.waitFor((m) => m.type === 'backup-done', 'backup-done');
      expect(done.data).toMatchObject({ kind: 'backup', ok: true, backupId: id });
      const progress = viewer.messages.filter((m) => m.type === 'backup-progress');
      expect(progress.length).toBeGreaterThan(0);
      expect(progress[0]?.data).toMatchObject({ kind: 'backup', operation: done.data.operation });
      // restic knows the total only once its scan ended, which a loaded machine may not reach before the last
      // status line of so small a backup: every progress line carries a byte count, not always a non-zero one.
      for (const line of progress) expect(line.data.bytesTotal).toBeGreaterThanOrEqual(0);
      // The outsider's socket got the status line a ping answers, and nothing about backups.
      outsider.send({ type: 'ping' });
      await outsider.waitFor((m) => m.type === 'pong', 'pong');
      expect(outsider.messages.filter((m) => m.type.startsWith('backup'))).toEqual([]);
    } finally {
      viewer.close();
      outsider.close();
    }
  });

  it('the policy’s schedule takes a backup when its minute comes, not before', async () => {
    const admin = await d.admin();
    const set = await d.request('PUT', '/daemon/server/live/backup-policy', {
      token: admin,
      body: { schedule: '30 12 * * *' },
    });
    expect(set.status).toBe(204);
    const due = Date.UTC(2030, 0, 1, 12, 30, 0);
    expect((await listBackups(d, 'live')).nextScheduled).toBe(due);
    const before = (await listBackups(d, 'live')).backups.length;
    clock.advanceTo(due - 1000);
    expect((await listBackups(d, 'live')).backups).toHaveLength(before);
    clock.advanceTo(due);
    const list = await waitFor(async () => {
      const now = await listBackups(d, 'live');
      return now.backups.length === before + 1 && now.running === null ? now : null;
    }, 'the scheduled backup');
    expect(list.backups[0]).toMatchObject({ trigger: 'schedule', by: null });
    expect(list.nextScheduled).toBe(Date.UTC(2030, 0, 2, 12, 30, 0));
  });

  it('the repository is checked and pruned on their own schedules, and the node status says so', async () => {
    const admin = await d.admin();
    const status = async () =>
      json<BackupNodeStatus>(await d.request('GET', '/daemon/backups', { token: admin }));
    const before = await status();
    expect(before).toMatchObject({ lastCheck: null, lastPrune: null });
    expect(before.nextCheck).toBe(Date.UTC(2030, 0, 1, 13, 0, 0));
    expect(before.nextPrune).toBe(Date.UTC(2030, 0, 1, 14, 0, 0));
    clock.advanceTo(Date.UTC(2030, 0, 1, 14, 0, 0));
    const after = await waitFor(async () => {
      const now = await status();
      return now.lastCheck && now.lastPrune ? now : null;
    }, 'the scheduled check and prune');
    expect(after.lastCheck).toMatchObject({ ok: true, at: Date.UTC(2030, 0, 1, 13, 0, 0) });
    expect(after.lastPrune).toMatchObject({ ok: true, at: Date.UTC(2030, 0, 1, 14, 0, 0) });
    expect(after.nextCheck).toBe(Date.UTC(2030, 0, 2, 13, 0, 0));
  });
});
