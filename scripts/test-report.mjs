/**
 * Turns a Vitest JSON report (and the run's exit status) into the closing `N passed, N failed` counts.
 * A test counts as failed when it failed, and also when it never ran because its file's setup failed
 * (a failing `beforeAll` marks the file failed and its tests skipped); a file that failed with no failed
 * or skipped test in it (a failing `afterAll`, an import error) counts one failure; a run that exited
 * non-zero with nothing counted as failed (an unhandled error outside any test) counts one failure too.
 */

/** @param {any} report the parsed Vitest JSON report; @param {number | null} exitStatus */
export function summarize(report, exitStatus) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of report?.testResults ?? []) {
    const results = file.assertionResults ?? [];
    const count = (status) => results.filter((r) => status.includes(r.status)).length;
    const filePassed = count(['passed']);
    const fileFailed = count(['failed']);
    const fileSkipped = count(['skipped', 'pending', 'todo']);
    passed += filePassed;
    if (file.status === 'failed') {
      // The skipped tests of a failed file did not run because the file's own set-up broke.
      failed += fileFailed + fileSkipped;
      if (fileFailed + fileSkipped === 0) failed += 1;
    } else {
      failed += fileFailed;
      skipped += fileSkipped;
    }
  }
  if (exitStatus !== 0 && failed === 0) failed += 1;
  return { passed, failed, skipped };
}

/** The closing line. */
export function closingLine({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
}
