/**
 * A benchmark stopped half-way leaves nothing behind (bench/children.ts, docs/performance.md § Running the
 * benchmarks): `bench:console` is started with its own tag, stopped with SIGTERM once its panel, daemon and
 * game all run, and must exit non-zero with no process carrying the tag left.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import { taggedPids } from '../../bench/tagged';

const ROOT = join(import.meta.dirname, '../..');
let tag = '';

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

afterEach(() => {
  // Whatever the outcome, nothing of this test's run survives it.
  for (const pid of taggedPids(tag)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

it('bench:console stopped with SIGTERM kills its panel, daemon and game and exits non-zero', async () => {
  tag = `bench-cleanup-test-${process.pid}-${Date.now()}`;
  const bench = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/console/run.ts')], {
    cwd: ROOT,
    env: { ...process.env, HEARTH_BENCH_TAG: tag },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  bench.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => bench.once('exit', (code) => resolve(code)));

  const running = () => taggedPids(tag).map(commandLine);
  const all = (lines: string[]) =>
    ['panel-main.ts', 'daemon-main.ts', 'fake-game.mjs'].every((name) => lines.some((l) => l.includes(name)));
  for (let i = 0; !all(running()); i += 1) {
    if (bench.exitCode !== null) throw new Error(`the benchmark ended before its game ran:\n${stderr}`);
    if (i > 1200) throw new Error(`the benchmark's game never ran; running: ${running().join('\n')}`);
    await sleep(100);
  }

  bench.kill('SIGTERM');
  expect(await exited).toBe(143);
  expect(stderr).toContain('terminated (SIGTERM)');
  // SIGKILL is delivered before the benchmark exits; reaping by init may lag a moment.
  for (let i = 0; i < 50 && taggedPids(tag).length > 0; i += 1) await sleep(100);
  expect(taggedPids(tag).map(commandLine)).toEqual([]);
}, 180_000);
