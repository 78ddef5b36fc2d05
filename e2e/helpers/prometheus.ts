/**
 * Debian's Prometheus (`apt-get install prometheus`, in .ci/run's package list) run as a child process on a free
 * loopback port with a scrape config of the test's own, and asked through its HTTP API (docs/daemon.md § Metrics).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './net';

export const PROMETHEUS = '/usr/bin/prometheus';

export interface ScrapeJob {
  job: string;
  /** `127.0.0.1:port` */
  target: string;
  token?: string;
  /** The target's certificate (PEM) when it serves HTTPS: a node with its deployment certificate. */
  caPem?: string;
}

export interface RunningPrometheus {
  url: string;
  /** The samples of an instant query: each series' labels and value. */
  query(promql: string): Promise<Array<{ metric: Record<string, string>; value: number }>>;
  stop(): Promise<void>;
}

/** In CI a missing Prometheus is a failure; locally the suite is skipped with the reason printed. */
export function prometheusAvailable(): boolean {
  if (existsSync(PROMETHEUS)) return true;
  const reason = `${PROMETHEUS} is missing (apt-get install prometheus)`;
  if (process.env.CI === 'true') throw new Error(`CI needs Debian's Prometheus: ${reason}`);
  console.warn(`skipping the Prometheus suite: ${reason}`);
  return false;
}

function scrapeConfig(dir: string, jobs: ScrapeJob[]): string {
  const lines = ['global:', '  scrape_interval: 1s', '  scrape_timeout: 900ms', 'scrape_configs:'];
  for (const { job, target, token, caPem } of jobs) {
    lines.push(`  - job_name: ${JSON.stringify(job)}`, '    metrics_path: /metrics');
    if (caPem) {
      const caFile = join(dir, `${job}.pem`);
      writeFileSync(caFile, caPem);
      lines.push('    scheme: https', '    tls_config:', `      ca_file: ${JSON.stringify(caFile)}`);
    }
    if (token)
      lines.push('    authorization:', '      type: Bearer', `      credentials: ${JSON.stringify(token)}`);
    lines.push('    static_configs:', `      - targets: [${JSON.stringify(target)}]`);
  }
  return `${lines.join('\n')}\n`;
}

export async function startPrometheus(jobs: ScrapeJob[]): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-prometheus-'));
  writeFileSync(join(dir, 'prometheus.yml'), scrapeConfig(dir, jobs));
  const port = await freePort();
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-8000)));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`Prometheus did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    query: async (promql) => {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await res.json()) as {
        status: string;
        data?: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
      };
      if (body.status !== 'success') throw new Error(`query ${promql} failed: ${JSON.stringify(body)}`);
      return (body.data?.result ?? []).map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
