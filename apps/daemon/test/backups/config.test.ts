/**
 * The daemon's `backups` keys (docs/configuration.md § Daemon `backups`): defaults, a bad value named at start,
 * and a node without restic.
 */
import { describe, expect, it } from 'vitest';
import { parseDaemonConfig } from '../../src/index';
import type { BackupNodeStatus } from '@hearth/contract';
import { errorCode, json, serverWithFiles } from '../helpers/backups';
import { startTestDaemon } from '../helpers/test-daemon';
import { generateTestKeys } from '../helpers/tokens';

const keys = await generateTestKeys();

describe('backups configuration', () => {
  it('defaults: restic on PATH, a weekly 5% check and a weekly prune', () => {
    const config = parseDaemonConfig({ publicKeyPem: keys.publicKeyPem });
    expect(config.backups).toEqual({
      resticPath: 'restic',
      checkSchedule: '30 4 * * 0',
      checkSubset: '5%',
      pruneSchedule: '0 5 * * 1',
    });
  });

  it('refuses a schedule or subset restic would not take, naming the key; empty schedules mean never', () => {
    const parse = (backups: Record<string, unknown>) => () =>
      parseDaemonConfig({ publicKeyPem: keys.publicKeyPem, backups });
    expect(parse({ checkSchedule: '61 * * * *' })).toThrow(/backups\.checkSchedule/);
    expect(parse({ pruneSchedule: '* * * * * *' })).toThrow(/backups\.pruneSchedule/);
    expect(parse({ checkSubset: '5 percent' })).toThrow(/backups\.checkSubset/);
    expect(parse({ unknown: 1 })).toThrow(/backups/);
    expect(
      parseDaemonConfig({ publicKeyPem: keys.publicKeyPem, backups: { checkSchedule: '' } }).backups
        .checkSchedule,
    ).toBe('');
  });

  it('without restic the backup routes answer ErrBackupUnavailable and the status says restic: null', async () => {
    const d = await startTestDaemon({ backups: { resticPath: '/nonexistent/restic' } });
    try {
      await serverWithFiles(d, 'norestic', { 'a.txt': 'a' });
      const res = await d.request('POST', '/daemon/server/norestic/backup', { token: await d.admin() });
      expect(res.status).toBe(503);
      expect(await errorCode(res)).toBe('ErrBackupUnavailable');
      const status = await json<BackupNodeStatus>(
        await d.request('GET', '/daemon/backups', { token: await d.admin() }),
      );
      expect(status.restic).toBeNull();
    } finally {
      await d.close();
    }
  });
});
