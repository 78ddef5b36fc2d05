/**
 * `bench:files` setup: the panel (panel-main.ts) and the daemon (daemon-main.ts) each in their own process, as
 * deployed; the client stays in the bench process. One server of the fake game on the node, over the API.
 * BENCH_FILES_PROFILE=<dir>: both processes write V8 CPU profiles there (open them in Chrome DevTools).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fakeGameDefinition } from '../../apps/daemon/test/helpers/test-daemon';
// SIGTERM in stop(): a clean exit, so a CPU profile is written.
import { spawn, stop } from '../children';

export interface FilesBenchSetup {
  panelUrl: string;
  admin: { token: string; email: string; password: string };
  serverId: string;
  serverRoot: string;
  sftpPort: number;
  close(): Promise<void>;
}

function start(script: string, args: string[] = []): { child: ChildProcess; line: Promise<string> } {
  const profile = process.env.BENCH_FILES_PROFILE;
  const flags = profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : [];
  // BENCH_FILES_NODE_FLAGS: extra node flags for both, e.g. `--import ./gc-log.mjs` to trace the collector.
  flags.push(...(process.env.BENCH_FILES_NODE_FLAGS ?? '').split(' ').filter(Boolean));
  const child = spawn(
    process.execPath,
    [...flags, '--import', 'tsx', join(import.meta.dirname, script), ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
  return { child, line };
}

async function api<T>(url: string, token: string, method: string, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function filesBenchSetup(): Promise<FilesBenchSetup> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-bench-files-node-'));
  const panel = start('panel-main.ts');
  const info = JSON.parse(await panel.line) as FilesBenchSetup['admin'] & {
    port: number;
    nodeId: string;
    config: Record<string, unknown> & { sftp: Record<string, unknown> };
  };
  const panelUrl = `http://127.0.0.1:${info.port}`;
  const nodeJson = join(dataDir, 'node.json');
  // Sessions re-check their login once a minute (as deployed).
  const sftp = { ...info.config.sftp, host: '127.0.0.1', port: 0, recheckMs: 60_000 };
  const config = { ...info.config, host: '127.0.0.1', port: 0, dataDir, logLevel: 'warn', sftp };
  writeFileSync(nodeJson, JSON.stringify(config));
  const daemon = start('daemon-main.ts', [nodeJson]);
  const ports = JSON.parse(await daemon.line) as { port: number; sftpPort: number };
  const nodeUrl = `${panelUrl}/api/nodes/${info.nodeId}`;
  await api(nodeUrl, info.token, 'PUT', { privatePort: ports.port, publicPort: ports.port });
  const body = { ...fakeGameDefinition(), name: 'bench files', node: info.nodeId, users: [] };
  const { id } = await api<{ id: string }>(`${panelUrl}/api/servers`, info.token, 'POST', body);
  return {
    panelUrl,
    admin: { token: info.token, email: info.email, password: info.password },
    serverId: id,
    serverRoot: join(dataDir, 'servers', id),
    sftpPort: ports.sftpPort,
    close: async () => {
      await stop(daemon.child);
      await stop(panel.child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
