/** One `hearth start` of the built tree for the bench: plain node, output collected, timings from the spawn. */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { sampleProcess } from '../console/stats';

export interface BenchHearth {
  child: ChildProcess;
  /** performance.now() just before the spawn. */
  spawnedAt: number;
  setupUrl(): Promise<string>;
  /** Milliseconds from the spawn to the first HTTP answer of `port` (any status), and the CPU spent until then. */
  untilAnswers(port: number, path?: string): Promise<{ ms: number; cpuMs: number }>;
  untilNodeAnswers(port: number): Promise<{ ms: number; cpuMs: number }>;
  stop(): Promise<void>;
}

/** One GET on a fresh connection: true once anything answers, false while the port refuses. */
function answers(port: number, path: string): Promise<boolean> {
  return new Promise((done) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      done(true);
    });
    req.once('error', () => done(false));
    req.end();
  });
}

const CAP_MS = 120_000; // only bounds a start that never comes

export async function startHearth(built: string, config: string): Promise<BenchHearth> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [join(built, 'bin/hearth.js'), '--config', config, 'start'], {
    env: { ...process.env, NODE_OPTIONS: '', HEARTH_CONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const untilAnswers = async (port: number, path = '/api/config') => {
    while (!(await answers(port, path))) {
      if (gone() || performance.now() - spawnedAt > CAP_MS)
        throw new Error(`hearth start failed:\n${output}`);
      await new Promise((r) => setTimeout(r, 2));
    }
    const ms = performance.now() - spawnedAt;
    return { ms, cpuMs: sampleProcess(child.pid ?? 0).ticks * 10 };
  };
  return {
    child,
    spawnedAt,
    async setupUrl() {
      for (;;) {
        const url = /(http\S+\/auth\/setup\?token=[\w-]+)/.exec(output)?.[1];
        if (url) return url;
        if (gone() || performance.now() - spawnedAt > CAP_MS) throw new Error(`no setup link:\n${output}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    untilAnswers,
    untilNodeAnswers: (port) => untilAnswers(port, '/daemon'),
    async stop() {
      if (!gone()) child.kill('SIGTERM');
      await exited;
    },
  };
}
