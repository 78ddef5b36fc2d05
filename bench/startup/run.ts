/**
 * `npm run bench:startup`: how fast the built `hearth start` (panel + local node, SQLite, an existing data folder
 * with 10 servers defined) gives its first HTTP answer, and how much memory it holds once idle.
 *
 * Method: the production build is written to .tmp/ (scripts/build.mjs, the web app as built), a data folder is
 * prepared by a first start (prepare.ts). Then 5 starts, one after the other: the time from spawning
 * `node <build>/bin/hearth.js start` to the first answer of `GET /api/config` (fresh connections polled every
 * 2 ms), the process's CPU time until then (/proc, load-independent), and the time until the local node answers
 * too; beside them 5 runs of `node -e 0`, the floor of any Node program on this machine. Then one more start,
 * left idle for 10 s after its node answered, and its RSS (the one process: panel, local node, 10 servers loaded).
 * The machine's load and cores are printed with the figures: on a busy machine wall times stretch, CPU times less.
 */
// Tags this process so no child outlives it, whatever way the run ends (children.ts).
import '../children';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { percentile } from '../console/stats';
import { prepareData, SERVERS } from './prepare';
import { startHearth } from './process';

const ROOT = resolve(import.meta.dirname, '../..');
const RUNS = 5;
const IDLE_MS = 10_000;

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const ms = (n: number) => `${n.toFixed(0)} ms`;

function build(): string {
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const out = join(ROOT, '.tmp/bench-startup-build');
  const web = existsSync(join(ROOT, 'apps/web/dist/index.html'));
  const run = spawnSync(
    process.execPath,
    ['scripts/build.mjs', `--out-dir=${out}`, ...(web ? ['--no-web'] : [])],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  if (run.status !== 0) throw new Error('the build failed');
  return out;
}

function nodeFloor(): { wall: number[]; cpu: number[] } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    const run = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, '-e', '0'], {
      encoding: 'utf8',
    });
    wall.push(performance.now() - started);
    const [user = 0, system = 0] = run.stderr.trim().split(/\s+/).map(Number);
    cpu.push((user + system) * 1000);
  }
  return { wall, cpu };
}

const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;

export async function runStartupBench(): Promise<void> {
  const built = build();
  const data = await prepareData(built);
  try {
    const first: number[] = [];
    const cpu: number[] = [];
    const node: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const hearth = await startHearth(built, data.config);
      const answer = await hearth.untilAnswers(data.web);
      const nodeUp = await hearth.untilNodeAnswers(data.node);
      first.push(answer.ms);
      cpu.push(answer.cpuMs);
      node.push(nodeUp.ms);
      await hearth.stop();
    }
    const floor = nodeFloor();
    const idle = await startHearth(built, data.config);
    await idle.untilNodeAnswers(data.node);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const rss = rssOf(idle.child.pid ?? 0);
    await idle.stop();

    const [one, five, fifteen] = loadavg().map((n) => n.toFixed(2));
    console.log(
      `bench:startup built \`hearth start\` (panel + local node, SQLite, existing data folder, ${SERVERS} servers), ${RUNS} starts`,
    );
    console.log(
      `  machine: ${cpus().length} cores, load average ${one} ${five} ${fifteen}, Node ${process.version}`,
    );
    console.log(
      `  first HTTP answer   median ${ms(median(first))} (min ${ms(Math.min(...first))}, max ${ms(Math.max(...first))}), CPU until then median ${ms(median(cpu))}`,
    );
    console.log(`  local node answers  median ${ms(median(node))}`);
    console.log(
      `  node -e 0           median ${ms(median(floor.wall))}, CPU median ${ms(median(floor.cpu))}`,
    );
    console.log(
      `  idle RSS            ${(rss / 1024 / 1024).toFixed(0)} MiB (${IDLE_MS / 1000} s after start)`,
    );
  } finally {
    rmSync(data.dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runStartupBench();
