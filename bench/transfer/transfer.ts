/**
 * `bench:transfer` harness: the panel (panel-main.ts) and two daemons (bench/files/daemon-main.ts, node A on
 * 127.0.0.1 and node B on 127.0.0.2) each in their own process, as deployed; the client stays in the bench
 * process. A round: a server of the fake game on A holding the dataset, `POST /api/servers/{id}/transfer`
 * `{node: B}`, `GET …/transfer` polled until `done` or `failed`, then every file's SHA-256 on B compared with A's
 * before the move, and the server deleted (its folder on B with it).
 * BENCH_TRANSFER_PROFILE=<dir>: all three processes write V8 CPU profiles there.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createReadStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import type { TransferState } from '@hearth/contract/transfer';
import { fakeGameDefinition } from '../../apps/daemon/test/helpers/test-daemon';
// SIGTERM in stop(): a clean exit, so a CPU profile is written (BENCH_TRANSFER_PROFILE).
import { spawn, stop } from '../children';

interface Proc {
  child: ChildProcess;
  line: Promise<string>;
}

/** `script` in its own node process; `line`: its first stdout line that is JSON with a `port` (log lines skipped). */
function start(script: string, args: string[] = []): Proc {
  const profile = process.env.BENCH_TRANSFER_PROFILE;
  const flags = profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : [];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith('{"port":')) return;
      lines.close();
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
  return { child, line };
}

export interface Node {
  id: string;
  /** Where this daemon keeps each server's folder (`<serversDir>/<server id>`). */
  serversDir: string;
}

export interface TransferBench {
  panelUrl: string;
  token: string;
  a: Node;
  b: Node;
  /** The daemons' and panel's pids, for the profile's CPU figures. */
  pids: { panel: number; a: number; b: number };
  api<T>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function transferBenchSetup(): Promise<TransferBench> {
  const procs: Proc[] = [];
  const dirs: string[] = [];
  const panel = start(join(import.meta.dirname, 'panel-main.ts'));
  procs.push(panel);
  const info = JSON.parse(await panel.line) as {
    port: number;
    token: string;
    nodes: Array<{ id: string; host: string; config: Record<string, unknown> & { sftp?: object } }>;
  };
  const panelUrl = `http://127.0.0.1:${info.port}`;
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${panelUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${info.token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const nodes: Node[] = [];
  const pids: number[] = [];
  for (const node of info.nodes) {
    const dataDir = mkdtempSync(join(tmpdir(), 'hearth-bench-transfer-node-'));
    dirs.push(dataDir);
    const sftp = { ...node.config.sftp, host: node.host, port: 0 };
    // Two daemons on one machine: the Minetest server list's fixed loopback port would collide.
    const players = { serverListPort: 0 };
    const config = { ...node.config, host: node.host, port: 0, dataDir, logLevel: 'warn', sftp, players };
    const file = join(dataDir, 'node.json');
    writeFileSync(file, JSON.stringify(config));
    const daemon = start(join(import.meta.dirname, '../files/daemon-main.ts'), [file]);
    procs.push(daemon);
    const { port } = JSON.parse(await daemon.line) as { port: number };
    await api('PUT', `/api/nodes/${node.id}`, { privatePort: port, publicPort: port });
    nodes.push({ id: node.id, serversDir: join(dataDir, 'servers') });
    pids.push(daemon.child.pid ?? 0);
  }
  return {
    panelUrl,
    token: info.token,
    a: nodes[0]!,
    b: nodes[1]!,
    pids: { panel: panel.child.pid ?? 0, a: pids[0] ?? 0, b: pids[1] ?? 0 },
    api,
    close: async () => {
      for (const proc of procs.slice().reverse()) await stop(proc.child);
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every regular file under `root` by its path relative to it, with its SHA-256. */
export async function manifest(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        const hash = createHash('sha256');
        for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }))
          hash.update(chunk as Buffer);
        out.set(relative(root, path), hash.digest('hex'));
      }
    }
  };
  await walk(root);
  return out;
}

/** The differences between two manifests (missing, extra or changed files), at most `limit` of them. */
export function differences(expected: Map<string, string>, actual: Map<string, string>, limit = 5): string[] {
  const out: string[] = [];
  for (const [path, sum] of expected) {
    if (!actual.has(path)) out.push(`missing ${path}`);
    else if (actual.get(path) !== sum) out.push(`changed ${path}`);
  }
  for (const path of actual.keys()) if (!expected.has(path)) out.push(`extra ${path}`);
  return out.slice(0, limit);
}

export interface RoundResult {
  seconds: number;
  /** The transfer's own count of archive bytes, and the file contents' total A announced. */
  tarBytes: number;
  total: number;
  files: number;
  /** Seconds spent in each phase, as seen by polling (±the poll interval). */
  phases: Record<string, number>;
  /** CPU seconds (user + system) each process used during the move: the figure the machine's load cannot bend. */
  cpu: { panel: number; a: number; b: number };
}

const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) process `pid` has used so far, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

function cpuOf(pids: TransferBench['pids']): { panel: number; a: number; b: number } {
  return { panel: cpuSeconds(pids.panel), a: cpuSeconds(pids.a), b: cpuSeconds(pids.b) };
}

const POLL_MS = 100;

/** Creates a server on A, fills it from `dataset` (hard links: no data is copied), moves it to B and times it. */
export async function round(
  bench: TransferBench,
  dataset: string,
  name: string,
): Promise<RoundResult & { id: string }> {
  const body = { ...fakeGameDefinition(), name, node: bench.a.id, users: [] };
  const { id } = await bench.api<{ id: string }>('POST', '/api/servers', body);
  const root = join(bench.a.serversDir, id);
  mkdirSync(root, { recursive: true });
  const cp = spawnSync('cp', ['-al', `${dataset}/.`, root]);
  if (cp.status !== 0) throw new Error(`cp -al: ${cp.stderr.toString()}`);
  const phases: Record<string, number> = {};
  const cpuBefore = cpuOf(bench.pids);
  const began = performance.now();
  let state = await bench.api<TransferState>('POST', `/api/servers/${id}/transfer`, { node: bench.b.id });
  let phaseAt = began;
  let phase = state.phase;
  while (state.phase !== 'done' && state.phase !== 'failed') {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    state = await bench.api<TransferState>('GET', `/api/servers/${id}/transfer`);
    if (state.phase !== phase) {
      const now = performance.now();
      phases[phase] = (phases[phase] ?? 0) + (now - phaseAt) / 1000;
      phase = state.phase;
      phaseAt = now;
    }
  }
  const seconds = (performance.now() - began) / 1000;
  const cpuAfter = cpuOf(bench.pids);
  const cpu = {
    panel: cpuAfter.panel - cpuBefore.panel,
    a: cpuAfter.a - cpuBefore.a,
    b: cpuAfter.b - cpuBefore.b,
  };
  if (state.phase === 'failed') throw new Error(`transfer failed: ${JSON.stringify(state.error)}`);
  return { id, seconds, tarBytes: state.bytes, total: state.total, files: state.files, phases, cpu };
}
