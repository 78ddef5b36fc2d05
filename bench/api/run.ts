/**
 * `npm run bench:api`: authenticated `GET /api/servers` (100 servers, default page) with 50 keep-alive
 * connections for 10 s against a panel in its own process; requests/s, p50/p99 latency, panel(+daemon) RSS
 * idle and under load, and the panel's CPU time per request. The load generator is plain node:http with a
 * keep-alive agent, in this process; the panel runs in a child process, so on the 2-core reference machine
 * each gets a core (other work on the machine skews req/s and latency, not CPU per request).
 */
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { spawn, stop } from '../children';
import { percentile, sampleProcess } from '../console/stats';

const CONNECTIONS = 50;
const DURATION_MS = Number(process.env.BENCH_API_MS ?? 10_000);

function get(agent: Agent, port: number, token: string): Promise<number> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/api/servers', agent, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        res.resume();
        res.once('end', () =>
          res.statusCode === 200
            ? resolve(Number(process.hrtime.bigint() - start) / 1e6)
            : reject(new Error(`HTTP ${res.statusCode}`)),
        );
      },
    );
    req.once('error', reject);
    req.end();
  });
}

async function load(port: number, token: string, ms: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  const end = Date.now() + ms;
  const worker = async () => {
    while (Date.now() < end) latencies.push(await get(agent, port, token));
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  agent.destroy();
  return latencies;
}

export async function runApiBench(): Promise<void> {
  // BENCH_API_PROFILE=<dir>: the panel process writes a V8 CPU profile there (open it in Chrome DevTools).
  const profile = process.env.BENCH_API_PROFILE;
  const flags = profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : [];
  const child = spawn(
    process.execPath,
    [...flags, '--import', 'tsx', join(import.meta.dirname, 'panel-main.ts')],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout! }).once('line', resolve),
  );
  const { port, token } = JSON.parse(line) as { port: number; token: string };
  await load(port, token, 1_000); // warm-up (JIT, node status cache)
  await new Promise((r) => setTimeout(r, 1_000));
  const idle = sampleProcess(child.pid ?? 0).rss;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, sampleProcess(child.pid ?? 0).rss)), 250);
  const started = Date.now();
  const before = sampleProcess(child.pid ?? 0);
  const latencies = await load(port, token, DURATION_MS);
  const after = sampleProcess(child.pid ?? 0);
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  // CPU the panel process spent per request: robust when other work shares the cores (req/s is not), and
  // 1000 / it is the req/s one free core could serve.
  const cpuMsPerRequest = ((after.ticks - before.ticks) * 10) / latencies.length;
  await stop(child); // SIGTERM: panel-main exits cleanly, so a CPU profile is written
  latencies.sort((a, b) => a - b);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    `bench:api GET /api/servers (100 servers, page 10), ${CONNECTIONS} connections, ${seconds.toFixed(1)} s`,
  );
  console.log(
    `  requests/s ${(latencies.length / seconds).toFixed(0)}  p50 ${percentile(latencies, 50).toFixed(2)} ms  p99 ${percentile(latencies, 99).toFixed(2)} ms`,
  );
  console.log(
    `  panel CPU ${cpuMsPerRequest.toFixed(3)} ms/request (one free core ≈ ${(1000 / cpuMsPerRequest).toFixed(0)} req/s)`,
  );
  console.log(`  panel+daemon RSS idle ${mb(idle)}, under load peak ${mb(peak)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await runApiBench();
