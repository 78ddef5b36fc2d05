/**
 * A real daemon in its own process on a fixed data directory, so a test can SIGKILL it and start another on
 * the same data (docs/daemon.md § Supervision). The data directory's name is long on purpose: a server's
 * socket path then exceeds the 108 bytes a Unix socket path may have, which the daemon must cope with.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseTestConfig } from '../helpers/test-config';
import { TestSocket } from '../helpers/socket';
import { killEverythingUnder } from './processes';
import { generateTestKeys, signDaemonToken, type TestKeys } from '../helpers/tokens';

const FIXTURE = join(import.meta.dirname, '..', 'docker', 'fixtures', 'run-daemon.ts');
const REPO = join(import.meta.dirname, '..', '..', '..', '..');
export const COUNTER_GAME = join(import.meta.dirname, 'fixtures', 'counter-game.mjs');

export class DaemonChild {
  child: ChildProcess | null = null;
  url = '';

  private constructor(
    readonly dataDir: string,
    readonly keys: TestKeys,
    private readonly configFile: string,
  ) {}

  static async create(overrides: Record<string, unknown> = {}): Promise<DaemonChild> {
    const keys = await generateTestKeys();
    const dataDir = await mkdtemp(join(tmpdir(), `hearth-supervision-${'d'.repeat(60)}-`));
    const configFile = join(dataDir, 'node.json');
    const crash = { minUptimeMs: 1_000, maxUnstableRuns: 3, backoffInitialMs: 50, backoffMaxMs: 400 };
    await writeFile(configFile, JSON.stringify({ ...baseTestConfig(dataDir, keys), crash, ...overrides }));
    return new DaemonChild(dataDir, keys, configFile);
  }

  runDirOf(id: string): string {
    return join(this.dataDir, 'run', id);
  }

  serverDirOf(id: string): string {
    return join(this.dataDir, 'servers', id);
  }

  /** Starts the daemon and resolves with its URL once it listens (after re-adoption at boot). */
  async start(): Promise<string> {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, this.configFile], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.child = child;
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`daemon exited with ${code}`)));
    });
    this.url = `http://127.0.0.1:${port}`;
    return this.url;
  }

  /** Ends the daemon process with `signal` and waits until it is gone. */
  async stop(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await gone;
    this.child = null;
  }

  admin(): Promise<string> {
    return signDaemonToken(this.keys.privateKey, { nodeId: 'test-node', admin: true, server: '*' });
  }

  async request(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${await this.admin()}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${this.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async socket(id: string): Promise<TestSocket> {
    return TestSocket.open(this.url, id, await this.admin());
  }

  async cleanup(): Promise<void> {
    await this.stop('SIGKILL');
    await killEverythingUnder(this.dataDir);
    await rm(this.dataDir, { recursive: true, force: true });
  }
}

/** A definition running the counter game (`extra` goes into `run`). */
export function counterGameDefinition(
  env: 'standard' | 'tty',
  args = '',
  extra: Record<string, unknown> = {},
) {
  return {
    type: 'counter',
    display: 'Counter game',
    data: {},
    install: [],
    run: { command: `${process.execPath} ${COUNTER_GAME} ${args}`.trim(), stop: 'stop', ...extra },
    environment: { type: env },
  };
}
