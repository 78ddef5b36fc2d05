/**
 * `npm run bench:api`: 50 keep-alive connections for 10 s (BENCH_API_MS) against each of
 *  - bare Fastify answering the same JSON as the server list (the ceiling, bare-main.ts);
 *  - the panel's `GET /api/servers` (100 servers, default page), cached (the repository's short read cache)
 *    and uncached (every page read from SQLite; a second panel process, BENCH_API_UNCACHED=1);
 *  - the panel's proxied daemon round trip `GET /proxy/daemon/server/{id}/status`.
 * Requests/s, p50/p99 latency, and the CPU time the server process spent per request (from /proc, sampled
 * around the run), with panel(+daemon) RSS. The load generator is plain node:http with a keep-alive agent, in
 * this process (no load generator such as autocannon is installed); the servers run in child processes, so on
 * the 2-core reference machine each side gets a core (other work on the machine skews req/s and latency, not CPU
 * per request). BENCH_API_PROFILE=<dir>: the cached panel writes a V8 CPU profile there.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { spawn, stop } from '../children';
import { percentile, sampleProcess } from '../console/stats';

const CONNECTIONS = 50;
const DURATION_MS = Number(process.env.BENCH_API_MS ?? 10_000);

/** A path, or one made per request (a write that must differ each time, e.g. a new server name). */
type PathOf = string | (() => string);

function get(agent: Agent, port: number, pathOf: PathOf, token?: string, method = 'GET'): Promise<number> {
  const start = process.hrtime.bigint();
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const path = typeof pathOf === 'string' ? pathOf : pathOf();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers, method }, (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      res.once('end', () =>
        status >= 200 && status < 300
          ? resolve(Number(process.hrtime.bigint() - start) / 1e6)
          : reject(new Error(`${method} ${path}: HTTP ${status}`)),
      );
    });
    req.once('error', reject);
    req.end();
  });
}

async function load(
  port: number,
  path: PathOf,
  token: string | undefined,
  ms: number,
  method = 'GET',
): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  const end = Date.now() + ms;
  const worker = async () => {
    while (Date.now() < end) latencies.push(await get(agent, port, path, token, method));
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  agent.destroy();
  return latencies;
}

/** Starts `script` in its own process and reads its first stdout line (JSON). */
async function start<T>(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; info: T }> {
  const profile = process.env.BENCH_API_PROFILE;
  const flags = profile && !env.BENCH_API_UNCACHED ? ['--cpu-prof', '--cpu-prof-dir', profile] : [];
  const child = spawn(
    process.execPath,
    [...flags, '--import', 'tsx', join(import.meta.dirname, script), ...args],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } },
  );
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout! }).once('line', resolve),
  );
  return { child, info: JSON.parse(line) as T };
}

/** The CPU per request of the last `measure` (ms): the figure other work on the machine skews least. */
let lastCpuMs = 0;

/** One scenario: warm-up, then the measured run; prints its line. */
async function measure(
  label: string,
  child: ChildProcess,
  port: number,
  path: PathOf,
  token?: string,
  method = 'GET',
) {
  const pid = child.pid ?? 0;
  await load(port, path, token, 1_000, method); // warm-up (JIT, caches)
  await new Promise((r) => setTimeout(r, 1_000));
  const idle = sampleProcess(pid).rss;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, sampleProcess(pid).rss)), 250);
  const started = Date.now();
  const before = sampleProcess(pid);
  const latencies = await load(port, path, token, DURATION_MS, method);
  const after = sampleProcess(pid);
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  // CPU the server process spent per request: robust when other work shares the cores (req/s is not), and
  // 1000 / it is the req/s one free core could serve.
  const cpuMs = ((after.ticks - before.ticks) * 10) / latencies.length;
  lastCpuMs = cpuMs;
  latencies.sort((a, b) => a - b);
  const rps = latencies.length / seconds;
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    `  ${label}: ${rps.toFixed(0)} req/s  p50 ${percentile(latencies, 50).toFixed(2)} ms  p99 ${percentile(latencies, 99).toFixed(2)} ms  ` +
      `CPU ${cpuMs.toFixed(3)} ms/request (one free core ≈ ${(1000 / cpuMs).toFixed(0)} req/s)  RSS idle ${mb(idle)}, peak ${mb(peak)}`,
  );
  return rps;
}

async function fetchBody(port: number, path: string, token: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status}`);
  return res.text();
}

export async function runApiBench(): Promise<void> {
  type Panel = { port: number; token: string; serverId: string };
  const load1 = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
  console.log(
    `bench:api ${CONNECTIONS} connections, ${(DURATION_MS / 1000).toFixed(0)} s each; load average before: ${load1()}`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-api-'));
  try {
    const panel = await start<Panel>('panel-main.ts');
    const list = '/api/servers';
    const bodyFile = join(dir, 'servers.json');
    writeFileSync(bodyFile, await fetchBody(panel.info.port, list, panel.info.token));
    const bare = await start<{ port: number }>('bare-main.ts', [bodyFile]);
    const ceiling = await measure(`bare Fastify, same JSON`, bare.child, bare.info.port, list);
    await stop(bare.child);
    const cached = await measure(
      'GET /api/servers (100 servers, page 10), cached',
      panel.child,
      panel.info.port,
      list,
      panel.info.token,
    );
    const status = await measure(
      `GET /proxy/daemon/server/{id}/status (panel → daemon; CPU is panel+daemon, one process)`,
      panel.child,
      panel.info.port,
      `/proxy/daemon/server/${panel.info.serverId}/status`,
      panel.info.token,
    );
    await stop(panel.child); // SIGTERM: panel-main exits cleanly, so a CPU profile is written
    const uncachedPanel = await start<Panel>('panel-main.ts', [], { BENCH_API_UNCACHED: '1' });
    const uncached = await measure(
      'GET /api/servers (100 servers, page 10), uncached',
      uncachedPanel.child,
      uncachedPanel.info.port,
      list,
      uncachedPanel.info.token,
    );
    await stop(uncachedPanel.child);
    const pct = (n: number) => `${((n / ceiling) * 100).toFixed(0)} % of bare Fastify`;
    console.log(
      `  cached list ${pct(cached)}, uncached list ${pct(uncached)}, proxied status ${pct(status)}; load average after: ${load1()}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `npm run bench:api -- activity`: a write-heavy route, `PUT /api/servers/{id}/name/{name}` (one update and one
 * activity entry per request), against a panel with the activity log on and one with `panel.activityEnabled:
 * false`; the throughput cost of the log is the drop from off to on (issue 18: at most 10 %). A third panel
 * writes each entry alone as the service did before batching (`unbatched`, patched in panel-main.ts). The
 * panels run for the whole bench and are measured in turn, off, on, unbatched, BENCH_API_ROUNDS times (default
 * 3), so a change of the machine's load hits all alike; the cost is given from the medians of req/s and of CPU
 * per request (the robust one on a shared machine).
 */
export async function runActivityBench(): Promise<void> {
  type Panel = { port: number; token: string; serverId: string };
  const rounds = Number(process.env.BENCH_API_ROUNDS ?? 3);
  const load1 = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
  console.log(
    `bench:api activity, ${CONNECTIONS} connections, ${DURATION_MS / 1000} s each, ${rounds} rounds of off, on, unbatched; load ${load1()}`,
  );
  let n = 0;
  const kinds = ['off', 'on', 'unbatched'] as const;
  const panels = {
    off: await start<Panel>('panel-main.ts', [], { BENCH_API_ACTIVITY: 'off' }),
    on: await start<Panel>('panel-main.ts', [], { BENCH_API_ACTIVITY: 'on' }),
    unbatched: await start<Panel>('panel-main.ts', [], { BENCH_API_ACTIVITY: 'unbatched' }),
  };
  const rates: Record<(typeof kinds)[number], number[]> = { off: [], on: [], unbatched: [] };
  const cpu: Record<(typeof kinds)[number], number[]> = { off: [], on: [], unbatched: [] };
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const activity of kinds) {
        const panel = panels[activity];
        const rename = () => `/api/servers/${panel.info.serverId}/name/bench-${++n}`;
        rates[activity].push(
          await measure(
            `round ${round}: PUT /api/servers/{id}/name/{name}, activity log ${activity}`,
            panel.child,
            panel.info.port,
            rename,
            panel.info.token,
            'PUT',
          ),
        );
        cpu[activity].push(lastCpuMs);
      }
    }
  } finally {
    for (const kind of kinds) await stop(panels[kind].child);
  }
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  for (const kind of kinds)
    console.log(
      `  median ${kind}: ${median(rates[kind]).toFixed(0)} req/s, ${median(cpu[kind]).toFixed(3)} ms CPU/request`,
    );
  for (const kind of ['on', 'unbatched'] as const) {
    const rateCost = (1 - median(rates[kind]) / median(rates.off)) * 100;
    const cpuCost = (median(cpu[kind]) / median(cpu.off) - 1) * 100;
    console.log(
      `  activity log ${kind === 'on' ? 'on (batched)' : 'on, unbatched'}: throughput cost ${rateCost.toFixed(1)} %, CPU per request +${cpuCost.toFixed(1)} % (target ≤ 10 %)`,
    );
  }
  console.log(`  load after: ${load1()}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('activity')) await runActivityBench();
  else await runApiBench();
}
