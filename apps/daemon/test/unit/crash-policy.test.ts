import { describe, expect, it } from 'vitest';
import { decideAfterExit, type CrashPolicySettings, type ExitFacts } from '../../src/server/crash-policy';

const settings: CrashPolicySettings = {
  minUptimeMs: 10_000,
  maxUnstableRuns: 5,
  backoffInitialMs: 1_000,
  backoffMaxMs: 60_000,
};
const crash: ExitFacts = {
  requested: false,
  clean: false,
  uptimeMs: 500,
  autorestart: false,
  autorecover: true,
};

describe('crash policy', () => {
  it('never restarts after a stop or kill a user asked for', () => {
    const d = decideAfterExit({ ...crash, requested: true, autorestart: true }, 3, settings);
    expect(d).toMatchObject({ restart: false, unstableRuns: 0 });
    expect(d.message).toBe('Stopped on request; no automatic restart.');
  });

  it('restarts a clean exit only with autorestart, a crash only with autorecover', () => {
    const clean = { ...crash, clean: true, uptimeMs: 60_000 };
    expect(decideAfterExit({ ...clean, autorestart: false }, 0, settings).restart).toBe(false);
    expect(decideAfterExit({ ...clean, autorestart: true, autorecover: false }, 0, settings)).toMatchObject({
      restart: true,
      message: 'Restarting in 1 s (autorestart).',
    });
    expect(decideAfterExit({ ...crash, autorecover: false, autorestart: true }, 0, settings)).toMatchObject({
      restart: false,
      message: 'Crashed; autorecover is off.',
    });
  });

  it('counts short runs as unstable and backs off exponentially', () => {
    const delays: number[] = [];
    let runs = 0;
    for (let i = 0; i < 4; i++) {
      const d = decideAfterExit(crash, runs, settings);
      expect(d.restart).toBe(true);
      expect(d.unstableRuns).toBe(runs + 1);
      delays.push(d.delayMs);
      runs = d.unstableRuns;
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(decideAfterExit(crash, 1, settings).message).toBe(
      'Restarting in 2 s (autorecover) (unstable run 2 of 5).',
    );
  });

  it('gives up after maxUnstableRuns unstable runs in a row', () => {
    const d = decideAfterExit(crash, 4, settings);
    expect(d).toMatchObject({ restart: false, unstableRuns: 5 });
    expect(d.message).toBe('Ran less than 10 s 5 times in a row; giving up. Start it again by hand.');
  });

  it('caps the backoff at backoffMaxMs', () => {
    const many = { ...settings, maxUnstableRuns: 100 };
    expect(decideAfterExit(crash, 6, many).delayMs).toBe(60_000); // 1 s × 2^6 = 64 s → 60 s
    expect(decideAfterExit(crash, 50, many).delayMs).toBe(60_000);
  });

  it('a stable run resets the count and restarts after the initial delay', () => {
    const d = decideAfterExit({ ...crash, uptimeMs: 10_000 }, 4, settings);
    expect(d).toMatchObject({ restart: true, unstableRuns: 0, delayMs: 1_000 });
    expect(d.message).toBe('Restarting in 1 s (autorecover).');
  });
});
