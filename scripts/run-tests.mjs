#!/usr/bin/env node
// Runs every suite and prints one closing line `N passed, N failed[, N skipped]` summed over all of them
// (counting rules in test-report.mjs). In CI (CI=true) a skipped test is a failure: suites that need a
// service must not quietly skip. `--out-dir=DIR` moves the report (default .test-results); every other
// argument goes to Vitest.
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync, rmSync } from 'node:fs';
import { closingLine, summarize } from './test-report.mjs';

const args = process.argv.slice(2);
const outArg = args.find((a) => a.startsWith('--out-dir='));
const outDir = outArg ? outArg.slice('--out-dir='.length) : '.test-results';
const extra = args.filter((a) => a !== outArg);
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

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

let report = null;
try {
  report = JSON.parse(readFileSync(`${outDir}/vitest.json`, 'utf8'));
} catch (err) {
  console.error(`could not read the test report: ${err instanceof Error ? err.message : String(err)}`);
}
const counts = report ? summarize(report, run.status) : { passed: 0, failed: 1, skipped: 0 };

const ci = process.env.CI === 'true';
if (ci && counts.skipped > 0)
  console.error(`${counts.skipped} test(s) skipped in CI: every suite must run here.`);
console.log(closingLine(counts));
const bad = run.status !== 0 || counts.failed > 0 || (ci && counts.skipped > 0) || counts.passed === 0;
process.exit(bad ? 1 : 0);
