/**
 * A node deployed as an operator deploys it: the deployment config the panel's API answered, written to
 * `node.json` unchanged, run by the real `hearth daemon --config node.json` in its own process — optionally
 * inside a network namespace, so the panel reaches it on another address over a veth pair like a remote
 * machine (docs/security.md § Node link). Only the data folder moves, through the daemon's own
 * `HEARTH_DAEMON_DATA_DIR` override (the file names /var/lib/hearth).
 *
 * Network namespaces need root (CAP_NET_ADMIN) and `ip` (iproute2). Without them `createNetns` answers a reason
 * to skip — unless CI=true, where it throws: CI must run these suites, not silently pass them.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPO = join(import.meta.dirname, '..', '..');
const CLI = join(REPO, 'apps', 'cli', 'src', 'main.ts');

export interface Netns {
  name: string;
  /** The host side of the veth pair (where the panel listens for the node). */
  hostAddress: string;
  /** The namespace side: the node's private host. */
  nodeAddress: string;
  /** Deletes the namespace (and with it the veth pair); safe to call twice. */
  close(): void;
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

function usedSubnets(): Set<number> {
  const out = execFileSync('ip', ['-o', '-4', 'addr', 'show'], { encoding: 'utf8' });
  return new Set([...out.matchAll(/inet 10\.200\.(\d+)\./g)].map((m) => Number(m[1])));
}

/**
 * A fresh namespace `hearth-<tag>-<pid>` joined to this one by a veth pair on 10.200.N.1 (host) / 10.200.N.2
 * (namespace), N not used by another run. Answers `{ skip }` when namespaces are not available here (CI throws).
 */
export function createNetns(tag: string): Netns | { skip: string } {
  const name = `hearth-${tag}-${process.pid}`;
  const hostIf = `h${tag.slice(0, 4)}${process.pid % 100_000}a`;
  const nsIf = `h${tag.slice(0, 4)}${process.pid % 100_000}b`;
  let created = false;
  const close = () => {
    if (!created) return;
    created = false;
    // Deleting the namespace destroys its end of the pair, which takes the host end with it.
    for (const args of [
      ['netns', 'del', name],
      ['link', 'del', hostIf],
    ]) {
      try {
        ip(...args);
      } catch {
        // already gone
      }
    }
  };
  try {
    const used = usedSubnets();
    const n = [...Array(250).keys()].map((i) => ((process.pid + i) % 250) + 1).find((k) => !used.has(k));
    if (n === undefined) throw new Error('no free 10.200.N.0/24 subnet');
    ip('netns', 'add', name);
    created = true;
    ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf);
    ip('link', 'set', nsIf, 'netns', name);
    ip('addr', 'add', `10.200.${n}.1/24`, 'dev', hostIf);
    ip('link', 'set', hostIf, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `10.200.${n}.2/24`, 'dev', nsIf);
    ip('netns', 'exec', name, 'ip', 'link', 'set', nsIf, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
    return { name, hostAddress: `10.200.${n}.1`, nodeAddress: `10.200.${n}.2`, close };
  } catch (err) {
    close();
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    const reason = `network namespaces unavailable: ${stderr || (err as Error).message}`;
    if (process.env.CI === 'true') throw new Error(`${reason} (CI must run the remote-node suites)`);
    return { skip: reason };
  }
}

export interface DeployedNode {
  process: ChildProcess;
  /** `http` or `https`, as the daemon announced it. */
  scheme: string;
  port: number;
  /** The certificate fingerprint the daemon announced (null over HTTP). */
  fingerprint: string | null;
  /** The SFTP port, or null when the daemon said SFTP is off. */
  sftpPort: number | null;
  /** Everything the daemon printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then waits for the exit (servers get their bounded stop); removes the data folder. */
  stop(): Promise<void>;
}

export interface DeployOptions {
  netns?: Netns;
  /** Extra environment (e.g. `HEARTH_DAEMON_LOG_LEVEL`). */
  env?: Record<string, string>;
  /** How long start-up may take before the helper gives up (a generous cap, not an assertion). */
  startMs?: number;
}

/**
 * Writes `config` to `node.json` exactly as given and runs `hearth daemon --config node.json` (inside
 * `options.netns` when given). Resolves once the daemon has printed its listening, certificate and SFTP lines;
 * rejects with its output when it exits first.
 */
export async function startDeployedNode(
  config: Record<string, unknown>,
  options: DeployOptions = {},
): Promise<DeployedNode> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-deployed-'));
  const file = join(dir, 'node.json');
  writeFileSync(file, JSON.stringify(config, null, 2), { mode: 0o600 });
  const command = [process.execPath, '--import', 'tsx', CLI, 'daemon', '--config', file];
  const [bin, ...args] = options.netns ? ['ip', 'netns', 'exec', options.netns.name, ...command] : command;
  const child = spawn(bin ?? 'ip', args, {
    cwd: REPO,
    env: { ...process.env, HEARTH_DAEMON_DATA_DIR: join(dir, 'data'), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (options.startMs ?? 60_000);
  for (;;) {
    const sftp = /hearth daemon: SFTP (off|on port (\d+))/.exec(output);
    if (sftp) {
      const listening = /listening on (https?):\/\/[^:\s]+:(\d+)/.exec(output);
      const fingerprint = /certificate SHA-256 ([0-9A-F:]+)/.exec(output)?.[1] ?? null;
      return {
        process: child,
        scheme: listening?.[1] ?? '',
        port: Number(listening?.[2] ?? 0),
        fingerprint,
        sftpPort: sftp[2] ? Number(sftp[2]) : null,
        output: () => output,
        stop,
      };
    }
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`hearth daemon did not start (exit ${child.exitCode}):\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
