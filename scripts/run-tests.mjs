#!/usr/bin/env node
// Runs every suite and prints one closing line `N passed, N failed[, N skipped]` summed over all of them.
// In CI (CI=true) a skipped test is a failure: suites that need a service must not quietly skip.
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync, rmSync } from 'node:fs';

const outDir = '.test-results';
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const extra = process.argv.slice(2);

const run = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${outDir}/vitest.json`,
    ...extra,
  ],
  { stdio: 'inherit', env: process.env },
);

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const report = JSON.parse(readFileSync(`${outDir}/vitest.json`, 'utf8'));
  passed = report.numPassedTests ?? 0;
  failed = report.numFailedTests ?? 0;
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // Suites that failed to load count as failures even though they hold no counted test.
  for (const file of report.testResults ?? []) {
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) failed += 1;
  }
} catch (err) {
  console.error(`could not read the test report: ${err instanceof Error ? err.message : String(err)}`);
  failed += 1;
}

const ci = process.env.CI === 'true';
if (ci && skipped > 0) console.error(`${skipped} test(s) skipped in CI: every suite must run here.`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
const bad = run.status !== 0 || failed > 0 || (ci && skipped > 0) || passed === 0;
process.exit(bad ? 1 : 0);
