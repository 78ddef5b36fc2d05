#!/usr/bin/env node
// Runs every suite and prints one closing line `N passed, N failed[, N skipped]` summed over all of them
// (counting rules in test-report.mjs). In CI (CI=true) a skipped test is a failure: suites that need a
// service must not quietly skip. `--out-dir=DIR` moves the report (default .test-results); every other
// argument goes to Vitest.
//
// With no Vitest arguments the two projects of vitest.config.ts run side by side, each in its own Vitest
// process: `unit` (its files one at a time on a 2-core machine) and `e2e` (always one file at a time, they
// start real panels, daemons and browsers). In one process Vitest runs its groups one after the other, so
// the e2e files waited for every unit file; side by side the run takes about the longer of the two.
// Output lines carry the project's name. With arguments (a file, `--project`, `--config`) one Vitest runs.
import { spawn } from 'node:child_process';
import { readFileSync, mkdirSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { closingLine, summarize } from './test-report.mjs';

const args = process.argv.slice(2);
const outArg = args.find((a) => a.startsWith('--out-dir='));
const outDir = outArg ? outArg.slice('--out-dir='.length) : '.test-results';
const extra = args.filter((a) => a !== outArg);
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const PROJECTS = ['unit', 'e2e'];
const runs = extra.length
  ? [{ name: '', args: extra }]
  : PROJECTS.map((p) => ({ name: p, args: ['--project', p] }));

/** One Vitest process; resolves with its exit status and the path of its JSON report. */
function runVitest({ name, args: vitestArgs }) {
  const report = `${outDir}/vitest${name ? `-${name}` : ''}.json`;
  const child = spawn(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...vitestArgs],
    { stdio: name ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: process.env },
  );
  if (name) {
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ])
      createInterface({ input: stream }).on('line', (line) => out.write(`[${name}] ${line}\n`));
  }
  return new Promise((resolve) => {
    child.on('error', (err) => {
      console.error(`could not start Vitest${name ? ` for ${name}` : ''}: ${err.message}`);
      resolve({ status: 1, report });
    });
    child.on('close', (code) => resolve({ status: code ?? 1, report }));
  });
}

const results = await Promise.all(runs.map(runVitest));
const counts = { passed: 0, failed: 0, skipped: 0 };
for (const { status, report } of results) {
  let parsed = null;
  try {
    parsed = JSON.parse(readFileSync(report, 'utf8'));
  } catch (err) {
    console.error(
      `could not read the test report ${report}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const one = parsed ? summarize(parsed, status) : { passed: 0, failed: 1, skipped: 0 };
  counts.passed += one.passed;
  counts.failed += one.failed;
  counts.skipped += one.skipped;
}

const ci = process.env.CI === 'true';
if (ci && counts.skipped > 0)
  console.error(`${counts.skipped} test(s) skipped in CI: every suite must run here.`);
console.log(closingLine(counts));
const bad =
  results.some((r) => r.status !== 0) ||
  counts.failed > 0 ||
  (ci && counts.skipped > 0) ||
  counts.passed === 0;
process.exit(bad ? 1 : 0);
