/** Runs the daemon in a child process with a fixed config, so a test can SIGKILL it and start it again. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseTestConfig } from '../helpers/test-config';
import { generateTestKeys, signDaemonToken, type TestKeys } from '../helpers/tokens';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'run-daemon.ts');
const REPO = join(import.meta.dirname, '..', '..', '..', '..');

export class DaemonProcess {
  child: ChildProcess | null = null;
  url = '';

  private constructor(
    readonly dataDir: string,
    readonly keys: TestKeys,
    private readonly configFile: string,
  ) {}

  static async create(): Promise<DaemonProcess> {
    const keys = await generateTestKeys();
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-daemon-proc-'));
    const configFile = join(dataDir, 'node.json');
    await writeFile(configFile, JSON.stringify(baseTestConfig(dataDir, keys)));
    return new DaemonProcess(dataDir, keys, configFile);
  }

  get serversDir(): string {
    return join(this.dataDir, 'servers');
  }

  /** Starts the daemon and resolves with its URL once it listens. */
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

  async cleanup(): Promise<void> {
    await this.stop('SIGKILL');
    await rm(this.dataDir, { recursive: true, force: true });
  }
}
