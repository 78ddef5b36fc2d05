/**
 * The runner's closing line cannot lie: a file whose beforeAll/afterAll fails counts as failed, even though
 * Vitest reports its tests as skipped or passed (scripts/test-report.mjs). Runs the real runner on a small
 * fixture suite with deliberately failing hooks.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closingLine, summarize } from '../test-report.mjs';

const outDir = mkdtempSync(join(tmpdir(), 'hearth-runner-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('scripts/run-tests.mjs', () => {
  it('counts the tests of a failed beforeAll and a failed afterAll file as failed, and exits non-zero', () => {
    const run = spawnSync(
      'node',
      ['scripts/run-tests.mjs', `--out-dir=${outDir}`, '--config', 'scripts/test/fixtures/vitest.config.ts'],
      { encoding: 'utf8', env: { ...process.env, CI: 'false' } },
    );
    const last = run.stdout.trim().split('\n').at(-1);
    // passing.fixture (1 passed) + after-all-fails (1 passed, file failed: +1) + before-all-fails (2 failed)
    expect(last).toBe('2 passed, 3 failed');
    expect(run.status).toBe(1);
  });
});

describe('summarize', () => {
  it('counts a non-zero exit with no failed test as one failure (an unhandled error)', () => {
    const report = { testResults: [{ status: 'passed', assertionResults: [{ status: 'passed' }] }] };
    expect(summarize(report, 1)).toEqual({ passed: 1, failed: 1, skipped: 0 });
    expect(summarize(report, 0)).toEqual({ passed: 1, failed: 0, skipped: 0 });
  });

  it('keeps real skips of a passing file as skipped', () => {
    const report = {
      testResults: [{ status: 'passed', assertionResults: [{ status: 'passed' }, { status: 'skipped' }] }],
    };
    expect(closingLine(summarize(report, 0))).toBe('1 passed, 0 failed, 1 skipped');
  });
});
