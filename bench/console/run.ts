/**
 * Console benchmark: a real daemon in its own process, the fake game flooding its console, and
 * websocket subscribers measuring throughput, end-to-end latency, lost lines, daemon CPU/RSS and the
 * latency of a status request during the flood. Prints the method and the figures.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { importPKCS8, SignJWT, type CryptoKey } from 'jose';
import { DAEMON_TOKEN_ISSUER, daemonTokenAudience, serverPermissions } from '@hearth/contract';
import { lineFrom, spawn, stop } from '../children';
import { cpuBetween, fmt, percentile, sampleProcess } from './stats';
import { Subscriber } from './subscriber';

const root = join(import.meta.dirname, '..', '..');
const FAKE_GAME = join(root, 'apps/daemon/test/fixtures/fake-game.mjs');

/** Where subscribers connect: straight to the daemon, or through the panel's socket proxy. */
export type Via = 'direct' | 'proxy';

interface Bench {
  daemon: ChildProcess;
  panel: ChildProcess;
  eld: () => Promise<string>;
  base: string;
  /** A direct-daemon token, re-signed before it expires (the daemon refuses tokens living longer than 65 s). */
  token: () => Promise<string>;
  dir: string;
  /** The panel's base URL and an admin session token (the path a browser takes). */
  panelBase: string;
  panelToken: string;
}

async function sign(key: CryptoKey, nodeId: string, admin: boolean): Promise<string> {
  return new SignJWT({ server: admin ? '*' : 'bench', perms: [...serverPermissions], admin })
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer(DAEMON_TOKEN_ISSUER)
    .setAudience(daemonTokenAudience(nodeId))
    .setSubject('bench')
    .setIssuedAt()
    .setExpirationTime('60s') // like the panel's: the daemon refuses longer-lived tokens
    .sign(key);
}

/** Signs a fresh token when the last one is older than 30 s, so a long run never sends an expired one. */
function refreshing(key: CryptoKey, nodeId: string, admin: boolean): () => Promise<string> {
  let current: { token: string; at: number } | null = null;
  return async () => {
    if (!current || Date.now() - current.at > 30_000)
      current = { token: await sign(key, nodeId, admin), at: Date.now() };
    return current.token;
  };
}

/**
 * The panel (its own process, bench/console/panel-main.ts) registers the node; the daemon (its own process)
 * starts from that node's deployment config, so it trusts the panel's key — proxied sockets carry the panel's
 * tokens; direct subscribers get long-lived tokens signed with the same key.
 */
async function startBench(): Promise<Bench> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-bench-'));
  const panel = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'panel-main.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const panelLines = createInterface({ input: panel.stdout! });
  const deployment = JSON.parse(await lineFrom(panelLines, 'NODE ')) as {
    config: { nodeId: string };
    privateKeyPem: string;
  };
  const nodeId = deployment.config.nodeId;
  const config = { ...deployment.config, host: '127.0.0.1', port: 0, dataDir: dir, logLevel: 'warn' };
  await writeFile(join(dir, 'node.json'), JSON.stringify(config));
  const daemon = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'daemon-main.ts'), join(dir, 'node.json')],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: daemon.stdout! });
  const port = await lineFrom(lines, 'PORT ');
  panel.stdin?.write(`PORT ${port}\n`);
  const ready = JSON.parse(await lineFrom(panelLines, 'READY ')) as { port: number; token: string };
  const privateKey = await importPKCS8(deployment.privateKeyPem, 'ES256');
  /** The daemon's own event-loop delay since the previous call: "p50 p99 max" in ms. */
  const eld = () =>
    new Promise<string>((resolve) => {
      const onLine = (line: string) => {
        if (!line.startsWith('ELD ')) return;
        lines.off('line', onLine);
        const [p50, p99, max, busy, block99, blockMax] = line.slice(4).split(' ');
        resolve(
          `p50 ${p50} ms, p99 ${p99} ms, max ${max} ms, loop busy ${busy}%; ` +
            `CPU between 1 ms ticks p99 ${block99} ms, max ${blockMax} ms`,
        );
      };
      lines.on('line', onLine);
      daemon.stdin?.write('eld\n');
    });
  const base = `http://127.0.0.1:${port}`;
  const admin = await sign(privateKey, nodeId, true);
  const fail = async (what: string, res: Response) => {
    if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${await res.text()}`);
  };
  const definition = {
    run: { command: `${process.execPath} ${FAKE_GAME}`, stop: 'stop' },
    environment: { type: 'standard' },
  };
  const headers = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' };
  await fail(
    'creating the server',
    await fetch(`${base}/daemon/server/bench`, { method: 'PUT', headers, body: JSON.stringify(definition) }),
  );
  await fail(
    'starting the server',
    await fetch(`${base}/daemon/server/bench/start?wait=true`, {
      method: 'POST',
      headers: { authorization: headers.authorization },
    }),
  );
  return {
    daemon,
    panel,
    eld,
    base,
    token: refreshing(privateKey, nodeId, false),
    dir,
    panelBase: `http://127.0.0.1:${ready.port}`,
    panelToken: ready.token,
  };
}

async function subscribers(b: Bench, count: number, via: Via = 'direct'): Promise<Subscriber[]> {
  const url =
    via === 'direct'
      ? `${b.base.replace('http', 'ws')}/daemon/socket/bench`
      : `${b.panelBase.replace('http', 'ws')}/proxy/daemon/socket/bench`;
  const token = via === 'direct' ? await b.token() : b.panelToken;
  return Promise.all(Array.from({ length: count }, () => Subscriber.open(url, token)));
}

/** Arms every subscriber for `text`; resolves when all are armed, with the promise that all saw it. */
async function armAll(subs: Subscriber[], text: string): Promise<{ reached: Promise<void> }> {
  const armed = await Promise.all(subs.map((s) => s.arm(text)));
  return { reached: Promise.all(armed.map((a) => a.reached)).then(() => undefined) };
}

/** Sends a console command to the fake game over HTTP (the subscribers only listen). */
async function command(b: Bench, line: string): Promise<void> {
  const res = await fetch(`${b.base}/daemon/server/bench/console`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await b.token()}`, 'content-type': 'text/plain' },
    body: line,
  });
  if (res.status !== 204) throw new Error(`console command failed: HTTP ${res.status}`);
}

/** Status round trips measured from a separate process, so a busy benchmark client does not skew them. */
async function statusLatencies(b: Bench, until: Promise<void>): Promise<number[]> {
  const probe = spawn(
    process.execPath,
    [join(import.meta.dirname, 'status-probe.mjs'), `${b.base}/daemon/server/bench/status`],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  // The probe reads its token from stdin, a fresh one every 20 s, however long the flood lasts.
  const feed = async () => probe.stdin?.write(`${await b.token()}\n`);
  await feed();
  const refresh = setInterval(() => void feed(), 20_000);
  const times: number[] = [];
  createInterface({ input: probe.stdout! }).on('line', (line) => times.push(Number(line)));
  await until;
  clearInterval(refresh);
  await stop(probe);
  return times.sort((x, y) => x - y);
}

async function throughput(b: Bench, count: number, lines: number, via: Via = 'direct'): Promise<void> {
  const subs = await subscribers(b, count, via);
  const panelBefore = sampleProcess(b.panel.pid!);
  const { reached: done } = await armAll(subs, 'flood done');
  const before = sampleProcess(b.daemon.pid!);
  let peakRss = before.rss;
  const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, sampleProcess(b.daemon.pid!).rss)), 50);
  await b.eld();
  const t0 = performance.now();
  await command(b, `flood ${lines}`);
  const status = await statusLatencies(b, done);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(rssTimer);
  const after = sampleProcess(b.daemon.pid!);
  const eld = await b.eld();
  const received = subs.map((s) => s.lines);
  const lost = subs.reduce((n, s) => n + (lines - s.lines), 0);
  const panelAfter = sampleProcess(b.panel.pid!);
  console.log(
    `[${via}] flood ${lines} lines, ${count} subscriber(s): ${fmt(lines / seconds, 0)} lines/s accepted and delivered per subscriber ` +
      `(min received ${Math.min(...received)}), lost ${lost} line(s) in total, dropped ${subs.reduce((n, s) => n + s.dropped, 0)} bytes; ` +
      `daemon CPU ${fmt(cpuBetween(before, after))}%, RSS peak ${fmt(peakRss / 1048576)} MiB; ` +
      `panel CPU ${fmt(cpuBetween(panelBefore, panelAfter))}%, RSS ${fmt(panelAfter.rss / 1048576)} MiB; ` +
      `status during flood p50 ${fmt(percentile(status, 50))} ms, p99 ${fmt(percentile(status, 99))} ms, max ${fmt(status.at(-1) ?? NaN)} ms (${status.length} requests); ` +
      `daemon event-loop delay ${eld}`,
  );
  await Promise.all(subs.map((s) => s.close()));
}

async function latency(b: Bench, rate: number, seconds: number, count: number, via: Via = 'direct') {
  const subs = await subscribers(b, count, via);
  const { reached: done } = await armAll(subs, 'rate done');
  const before = sampleProcess(b.daemon.pid!);
  const panelBefore = sampleProcess(b.panel.pid!);
  await b.eld();
  await command(b, `rate ${rate} ${seconds}`);
  await done;
  const after = sampleProcess(b.daemon.pid!);
  const panelAfter = sampleProcess(b.panel.pid!);
  const eld = await b.eld();
  const all = subs.flatMap((s) => s.latencies).sort((x, y) => x - y);
  const expected = rate * seconds;
  const lost = subs.reduce((n, s) => n + (expected - s.lines), 0);
  console.log(
    `[${via}] ${rate} lines/s for ${seconds} s, ${count} subscribers: latency p50 ${fmt(percentile(all, 50), 0)} ms, p99 ${fmt(percentile(all, 99), 0)} ms, ` +
      `max ${fmt(all.at(-1) ?? NaN, 0)} ms; lost ${lost} of ${expected * count} line deliveries; daemon CPU ${fmt(cpuBetween(before, after))}%, ` +
      `RSS ${fmt(after.rss / 1048576)} MiB; panel CPU ${fmt(cpuBetween(panelBefore, panelAfter))}%, ` +
      `RSS ${fmt(panelAfter.rss / 1048576)} MiB; daemon event-loop delay ${eld}`,
  );
  await Promise.all(subs.map((s) => s.close()));
  return { p50: percentile(all, 50), p99: percentile(all, 99) };
}

/** The same scenario straight to the daemon and through the panel's proxy, alternately, `rounds` times. */
async function compare(b: Bench, rate: number, rounds: number): Promise<void> {
  const p99: Record<Via, number[]> = { direct: [], proxy: [] };
  for (let i = 0; i < rounds; i++) {
    for (const via of ['direct', 'proxy'] as const) p99[via].push((await latency(b, rate, 5, 20, via)).p99);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? NaN;
  console.log(
    `${rate} lines/s, 20 subscribers, ${rounds} alternating rounds: median p99 direct ${fmt(median(p99.direct), 0)} ms, ` +
      `proxy ${fmt(median(p99.proxy), 0)} ms (proxy − direct ${fmt(median(p99.proxy) - median(p99.direct), 0)} ms)`,
  );
}

export async function runConsoleBench(): Promise<void> {
  console.log('# Console benchmark');
  console.log(
    'Method: daemon in its own Node process (CPU/RSS from /proc/<pid>/stat), fake game (apps/daemon/test/fixtures/fake-game.mjs) ' +
      'in the standard environment, N websocket subscribers on loopback, each in its own Node process. Throughput: `flood N` writes N 75-byte lines as fast as ' +
      'stdout drains; rate = lines / time until every subscriber saw the last line. Latency: `rate R S` stamps each line with ' +
      'Date.now() when written; latency = arrival at the subscriber - stamp (ms resolution). Status: GET /status every 20 ms during the flood, from a separate process. Event-loop delay: measured inside the daemon (perf_hooks, 5 ms resolution) during each scenario; "CPU between 1 ms ticks": daemon CPU time between two 1 ms timer callbacks, i.e. the longest stretch of work blocking its loop, which a busy machine cannot inflate.',
  );
  console.log(
    'Proxy: the same subscribers through the panel (its own process, bench/console/panel-main.ts) at ' +
      '/proxy/daemon/socket/bench with an admin session token — the path a browser takes; the daemon runs from the ' +
      "node's deployment config. Direct and proxied runs alternate; BENCH_CONSOLE_PROXY_ONLY=1 runs only the comparison.",
  );
  const b = await startBench();
  try {
    if (!process.env.BENCH_CONSOLE_PROXY_ONLY) {
      await throughput(b, 1, 200_000);
      await throughput(b, 20, 200_000);
      await latency(b, 1_000, 5, 20);
      await latency(b, 10_000, 5, 20);
    }
    await throughput(b, 1, 200_000, 'proxy');
    await throughput(b, 20, 200_000, 'proxy');
    await compare(b, 1_000, 3);
    await compare(b, 10_000, 3);
  } finally {
    for (const child of [b.daemon, b.panel]) await stop(child);
    await rm(b.dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runConsoleBench();
