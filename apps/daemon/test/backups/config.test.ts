/** The daemon's `backups` keys (docs/configuration.md § Daemon `backups`): defaults, and a bad value named at start. */
import { describe, expect, it } from 'vitest';
import { parseDaemonConfig } from '../../src/index';
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
});
