/**
 * `npm run bench:metrics`: a daemon (own process) with 200 servers, each with 30 days of stored history (both
 * rings full, a 5-hour journal), 20 of them running the fake game so the sampler reads /proc. Measured from this
 * process over keep-alive HTTP: `GET /metrics` one scrape at a time (p50/p99/max, 2,000 scrapes — a Prometheus
 * scrapes one at a time) and `GET …/history?range=30d` and `?range=24h` (the heaviest reads); then the bytes
 * a server's history takes on disk and the bytes it writes per day (docs/performance.md § Metrics).
 */
// Tags this process so no child outlives it, whatever way the run ends (children.ts).
import '../children';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import { fakeGameDefinition } from '../../apps/daemon/test/helpers/test-daemon';
import { generateTestKeys, signDaemonToken } from '../../apps/daemon/test/helpers/tokens';
import { COMPACT_AFTER } from '../../apps/daemon/src/history/store';
import { FILE_BYTES, RECORD_BYTES } from '../../apps/daemon/src/history/codec';
import { percentile, sampleProcess } from '../console/stats';
import { historyFiles, seedHistory } from './seed-history';

const SERVERS = Number(process.env.BENCH_METRICS_SERVERS ?? 200);
const RUNNING = Number(process.env.BENCH_METRICS_RUNNING ?? 20);
const SCRAPES = Number(process.env.BENCH_METRICS_SCRAPES ?? 2000);
const HISTORY_READS = 200;
const TOKEN = 'bench-metrics-token';

function get(
  agent: Agent,
  port: number,
  path: string,
  token: string,
): Promise<{ ms: number; bytes: number }> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.once('end', () =>
          res.statusCode === 200
            ? resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, bytes })
            : reject(new Error(`${path}: HTTP ${res.statusCode}`)),
        );
      },
    );
    req.once('error', reject);
    req.end();
  });
}

async function send(
  port: number,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
}

const fmt = (values: number[]) => {
  const sorted = values.toSorted((a, b) => a - b);
  const p = (q: number) => percentile(sorted, q).toFixed(2);
  return `p50 ${p(50)} ms, p99 ${p(99)} ms, max ${(sorted.at(-1) ?? 0).toFixed(2)} ms`;
};

export async function runMetricsBench(): Promise<void> {
  const keys = await generateTestKeys();
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-bench-metrics-'));
  const ids = Array.from({ length: SERVERS }, (_, i) => `bench${String(i).padStart(3, '0')}`);
  const now = Date.now();
  const files = historyFiles(now, 300);
  for (const id of ids) await seedHistory(join(dataDir, 'history'), id, files);
  const config = {
    nodeId: 'bench',
    host: '127.0.0.1',
    port: 0,
    dataDir,
    publicKeyPem: keys.publicKeyPem,
    logLevel: 'silent',
    sftp: { enabled: false },
    metrics: { enabled: true, token: TOKEN },
    players: { serverListPort: 0 },
  };
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'daemon-main.ts')], {
    env: { ...process.env, BENCH_DAEMON_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const m = /^PORT (\d+)$/.exec(line);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`daemon exited with ${code}`)));
    });
    // Daemon tokens live 60 s (docs/security.md): a fresh one for each call.
    const admin = () => signDaemonToken(keys.privateKey, { nodeId: 'bench', admin: true });
    for (const id of ids)
      await send(port, 'PUT', `/daemon/server/${id}`, await admin(), fakeGameDefinition());
    for (const id of ids.slice(0, RUNNING)) {
      await send(port, 'POST', `/daemon/server/${id}/start?wait=true`, await admin());
    }
    await new Promise((r) => setTimeout(r, 3000)); // first samples and disk sizes
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const cpuBefore = sampleProcess(child.pid ?? 0).ticks;
    const scrapes: number[] = [];
    let size = 0;
    for (let i = 0; i < SCRAPES; i++) {
      const { ms, bytes } = await get(agent, port, '/metrics', TOKEN);
      scrapes.push(ms);
      size = bytes;
    }
    const cpuMs = ((sampleProcess(child.pid ?? 0).ticks - cpuBefore) * 10) / SCRAPES;
    const history: Record<string, number[]> = { '30d': [], '24h': [] };
    for (const range of ['30d', '24h'] as const) {
      const token = await admin();
      for (let i = 0; i < HISTORY_READS; i++) {
        const id = ids[i % ids.length] ?? '';
        history[range]?.push(
          (await get(agent, port, `/daemon/server/${id}/history?range=${range}`, token)).ms,
        );
      }
    }
    agent.destroy();
    let stored = 0;
    for (const file of await readdir(join(dataDir, 'history'))) {
      stored += (await stat(join(dataDir, 'history', file))).size;
    }
    const rss = sampleProcess(child.pid ?? 0).rss;
    const perDay = 1440 * RECORD_BYTES + Math.ceil(1440 / COMPACT_AFTER) * FILE_BYTES;
    console.log(`machine load average (1/5/15 min) before measuring: ${load}`);
    console.log(
      `daemon: ${SERVERS} servers (${RUNNING} running), 30 days of history each; RSS ${(rss / 1e6).toFixed(0)} MB`,
    );
    console.log(
      `GET /metrics × ${SCRAPES} (one at a time, ${(size / 1024).toFixed(0)} KiB each): ${fmt(scrapes)}; daemon CPU ${cpuMs.toFixed(2)} ms/scrape`,
    );
    console.log(`GET history?range=30d × ${HISTORY_READS} (2,880 points): ${fmt(history['30d'] ?? [])}`);
    console.log(`GET history?range=24h × ${HISTORY_READS} (1,440 points): ${fmt(history['24h'] ?? [])}`);
    console.log(
      `history on disk: ${(stored / SERVERS).toFixed(0)} bytes per server (ring file ${FILE_BYTES} + journal ≤ ${COMPACT_AFTER * RECORD_BYTES}), whatever its age`,
    );
    console.log(
      `history written: ${perDay} bytes per server per day (1,440 journal records of ${RECORD_BYTES} B + ${Math.ceil(1440 / COMPACT_AFTER)} ring rewrites)`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runMetricsBench();
