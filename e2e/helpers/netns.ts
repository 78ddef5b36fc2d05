/**
 * A node that really cannot be reached (issue 19, docs/operations.md § Testing the outbound link): a network
 * namespace of its own joined to this one by a veth pair on a private /30 (10.231.X.1 here, 10.231.X.2 there),
 * with a firewall inside that drops every NEW inbound TCP connection except on loopback. The node can dial out
 * to the root side (its replies come back as ESTABLISHED); nothing in the root namespace can open a connection
 * to it. The node's daemon is the BUILT `hearth` (dist/hearth, what `npm test` builds first), run inside with
 * `ip netns exec`.
 *
 * Needs root (CAP_NET_ADMIN), `ip` (iproute2) and `iptables`. Not root outside CI: `{ skip }` with the reason;
 * anything missing in CI, or a failing `ip`/`iptables` as root: an error (these suites must run, not vanish).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

export interface IsolatedNetns {
  name: string;
  /** The root side of the veth pair: where the panel listens for the node. */
  hostAddress: string;
  /** The namespace side: the node's only address besides loopback. */
  nodeAddress: string;
  /** The veth end inside the namespace (set down to cut the node off, up to bring it back). */
  nodeInterface: string;
  /** Runs `command` inside the namespace (no shell) and answers its stdout. */
  exec(command: string, ...args: string[]): string;
  /** Cuts (`false`) or restores (`true`) the node's side of the link. */
  setLink(up: boolean): void;
  /** Kills every process in the namespace, deletes it (the veth pair goes with it); safe to call twice. */
  close(): void;
}

const run = (command: string, args: string[]): string =>
  execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

/** Why this machine cannot build the namespace (null: it can). Not root outside CI is the only skip. */
export function netnsUnavailable(suite: string): string | null {
  const missing = ['ip', 'iptables'].filter((tool) => {
    try {
      run(tool, ['-V']);
      return false;
    } catch {
      return true;
    }
  });
  const notRoot = process.getuid?.() !== 0;
  const reasons = [
    ...(notRoot ? ['not root (network namespaces need CAP_NET_ADMIN)'] : []),
    ...missing.map((tool) => `\`${tool}\` not found (apt-get install iproute2 iptables)`),
  ];
  if (reasons.length === 0) return null;
  const reason = reasons.join('; ');
  if (process.env.CI === 'true' || !notRoot) throw new Error(`${suite}: ${reason}`);
  console.warn(`[skip] ${suite}: ${reason}`);
  return reason;
}

/** A 10.231.X.0/30 no interface of this namespace uses yet, X random (several runs may share the machine). */
function freeSubnet(): number {
  const used = new Set(
    [...run('ip', ['-o', '-4', 'addr', 'show']).matchAll(/inet 10\.231\.(\d+)\./g)].map((m) => Number(m[1])),
  );
  const start = Math.floor(Math.random() * 256);
  for (let i = 0; i < 256; i += 1) if (!used.has((start + i) % 256)) return (start + i) % 256;
  throw new Error('no free 10.231.X.0/30 subnet');
}

let sequence = 0;
const REPO = join(import.meta.dirname, '..', '..');
/** Each namespace's copy of the built `hearth` (see builtHearth), removed with the namespace. */
const builtCopies = new Map<string, string>();

/** Builds the namespace described at the top; torn down by `close()` and, whatever happens, at process exit. */
export function createIsolatedNetns(): IsolatedNetns {
  sequence += 1;
  const name = `hearth-${process.pid}-${sequence}`;
  // Interface names are at most 15 bytes.
  const id = `${process.pid % 1_000_000}${sequence}`;
  const [hostIf, nsIf] = [`hv${id}a`, `hv${id}b`];
  const x = freeSubnet();
  const [hostAddress, nodeAddress] = [`10.231.${x}.1`, `10.231.${x}.2`];
  const inside = (command: string, ...args: string[]) => run('ip', ['netns', 'exec', name, command, ...args]);
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    process.off('exit', close);
    killAllIn(name);
    const copy = builtCopies.get(name);
    if (copy) rmSync(copy, { recursive: true, force: true });
    builtCopies.delete(name);
    for (const args of [
      ['netns', 'del', name],
      ['link', 'del', hostIf],
    ]) {
      try {
        run('ip', args);
      } catch {
        // Already gone: deleting the namespace destroys its veth end, which takes the root end with it.
      }
    }
  };
  process.once('exit', close);
  try {
    run('ip', ['netns', 'add', name]);
    run('ip', ['link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf]);
    run('ip', ['link', 'set', nsIf, 'netns', name]);
    run('ip', ['addr', 'add', `${hostAddress}/30`, 'dev', hostIf]);
    run('ip', ['link', 'set', hostIf, 'up']);
    inside('ip', 'addr', 'add', `${nodeAddress}/30`, 'dev', nsIf);
    inside('ip', 'link', 'set', nsIf, 'up');
    inside('ip', 'link', 'set', 'lo', 'up');
    // IPv6 link-local addresses would be a second way in that the IPv4 rules below do not cover.
    if (existsSync('/proc/sys/net/ipv6')) inside('sysctl', '-q', '-w', 'net.ipv6.conf.all.disable_ipv6=1');
    inside('iptables', '-A', 'INPUT', '-i', 'lo', '-j', 'ACCEPT');
    inside('iptables', '-A', 'INPUT', '-p', 'tcp', '-m', 'conntrack', '--ctstate', 'NEW', '-j', 'DROP');
  } catch (err) {
    close();
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`could not build the network namespace: ${stderr || (err as Error).message}`);
  }
  return {
    name,
    hostAddress,
    nodeAddress,
    nodeInterface: nsIf,
    exec: inside,
    setLink: (up) => void inside('ip', 'link', 'set', nsIf, up ? 'up' : 'down'),
    close,
  };
}

/** SIGKILL to every process in the namespace: the daemon and the game servers its holders keep alive. */
function killAllIn(name: string): void {
  let pids: string[] = [];
  try {
    pids = run('ip', ['netns', 'pids', name]).split(/\s+/).filter(Boolean);
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Exited meanwhile.
    }
  }
}

export type TcpOutcome = 'connected' | 'refused' | 'no answer';

/** Opens a TCP connection from THIS namespace; how it went (a silent drop shows as 'no answer' after `waitMs`). */
export function tcpConnect(host: string, port: number, waitMs = 5_000): Promise<TcpOutcome> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (outcome: TcpOutcome) => {
      socket.destroy();
      resolve(outcome);
    };
    socket.setTimeout(waitMs, () => done('no answer'));
    socket.once('connect', () => done('connected'));
    socket.once('error', (err: NodeJS.ErrnoException) =>
      done(err.code === 'ECONNREFUSED' ? 'refused' : 'no answer'),
    );
  });
}

const PROBE = `const s = require('node:net').connect({ host: process.argv[1], port: Number(process.argv[2]) });
s.setTimeout(Number(process.argv[3]), () => { console.log('no answer'); process.exit(0); });
s.on('connect', () => { console.log('connected'); process.exit(0); });
s.on('error', (e) => { console.log(e.code === 'ECONNREFUSED' ? 'refused' : 'no answer'); process.exit(0); });`;

/** The same probe from inside the namespace (a short node process there; host and port are argv, not code). */
export async function tcpConnectFrom(
  ns: IsolatedNetns,
  host: string,
  port: number,
  waitMs = 5_000,
): Promise<TcpOutcome> {
  const args = ['netns', 'exec', ns.name, process.execPath, '-e', PROBE, host, String(port), String(waitMs)];
  const child = spawn('ip', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  return out.trim() as TcpOutcome;
}

/**
 * A private copy of the built `hearth` (dist/hearth) for the namespace's daemon: another `npm run build` rewrites
 * dist/hearth with new chunk names, which would break a daemon already running from it. Copied under the build
 * lock, inside the repository (the bundle loads its externals from the repository's node_modules); removed with
 * the namespace.
 */
function builtHearth(ns: IsolatedNetns): string {
  const known = builtCopies.get(ns.name);
  if (known) return known;
  const dist = join(REPO, 'dist', 'hearth');
  if (!existsSync(join(dist, 'bin', 'hearth.js')))
    throw new Error(`${dist} is missing: run \`npm run build\``);
  const copy = join(REPO, 'dist', ns.name);
  run('flock', ['/tmp/webbuild.lock', 'cp', '-a', dist, copy]);
  builtCopies.set(ns.name, copy);
  return copy;
}

export interface NsDaemon {
  /** Everything the daemon printed since its last start (stdout and stderr). */
  output(): string;
  /** Starts `hearth daemon --config node.json` inside the namespace; resolves once it printed its SFTP line. */
  start(): Promise<void>;
  /** Stops it with `signal` (SIGTERM: servers get their bounded stop; SIGKILL: gone at once) and waits. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The node as an operator deploys it: `config` (the panel's deployment config, unchanged) in node.json, run by
 * the built `hearth daemon` inside `ns`. Only the data folder moves, through the daemon's own
 * `HEARTH_DAEMON_DATA_DIR` (the file names /var/lib/hearth); it survives restarts, like a real node's.
 */
export function deployInNetns(
  ns: IsolatedNetns,
  config: Record<string, unknown>,
  dir: string,
  env: Record<string, string> = {},
): NsDaemon {
  const file = join(dir, 'node.json');
  writeFileSync(file, JSON.stringify(config, null, 2), { mode: 0o600 });
  let child: ChildProcess | null = null;
  let output = '';
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await exited;
  };
  const start = async () => {
    output = '';
    const cli = join(builtHearth(ns), 'bin', 'hearth.js');
    // `ip netns exec` execs the command: the child's pid is the daemon's own.
    const started = spawn(
      'ip',
      ['netns', 'exec', ns.name, process.execPath, cli, 'daemon', '--config', file],
      {
        cwd: dir,
        env: { ...process.env, HEARTH_DAEMON_DATA_DIR: join(dir, 'data'), ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = started;
    started.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 120_000;
    while (!/hearth daemon: SFTP (off|on port)/.test(output)) {
      if (started.exitCode !== null || started.signalCode !== null || Date.now() > deadline) {
        await stop('SIGKILL');
        throw new Error(`hearth daemon did not start in ${ns.name}:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return { output: () => output, start, stop };
}
