import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './hearth-process';

/**
 * Runs the production build (scripts/build.mjs, without rebuilding the web app) into a fresh folder under .tmp/ —
 * inside the repository, whose node_modules hold the externals — so the suite runs today's code as it ships and
 * no other build in dist/ is touched. Returns the folder and its remover.
 */
export function buildHearth(): { dir: string; remove: () => void } {
  mkdirSync(join(REPO, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(REPO, '.tmp', 'hearth-build-'));
  const run = spawnSync(process.execPath, ['scripts/build.mjs', '--no-web', `--out-dir=${dir}`], {
    cwd: REPO,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`the build failed:\n${run.stdout}\n${run.stderr}`);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
