/**
 * Console latency through the outbound node link vs the inbound one (issue 19: 20 subscribers, 10,000 lines/s,
 * target ≤ +5 ms p99). One panel (bench/link/panel-main.ts) with two nodes: `in`, whose daemon the panel dials,
 * and `out`, whose daemon dials the panel and carries every proxied request and socket over its multiplexed
 * link. Both daemons are bench/console/daemon-main.ts processes from their nodes' deployment configs; the
 * subscribers (bench/console's, each its own process) connect to the PANEL's socket proxy as a browser does, so
 * the two runs differ only in the panel → daemon hop. Rounds alternate inbound and outbound.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { getPriority, loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { importPKCS8, SignJWT } from 'jose';
import { DAEMON_TOKEN_ISSUER, daemonTokenAudience, serverPermissions } from '@hearth/contract';
import { lineFrom, spawn, stop } from '../children';
import { cpuBetween, fmt, percentile, sampleProcess } from '../console/stats';
import { Subscriber } from '../console/subscriber';

const root = join(import.meta.dirname, '..', '..');
const FAKE_GAME = join(root, 'apps/daemon/test/fixtures/fake-game.mjs');
const DAEMON_MAIN = join(root, 'bench/console/daemon-main.ts');

export type Link = 'inbound' | 'outbound';
const SERVER: Record<Link, string> = { inbound: 'bench-in', outbound: 'bench-out' };

interface Bench {
  panel: ChildProcess;
  daemons: Record<Link, ChildProcess>;
  /** Each daemon's own loopback URL: the benchmark sends the game its commands there (the subscribers only listen). */
  direct: Record<Link, { base: string; nodeId: string }>;
  /** A fresh direct-daemon admin token for a node (the daemon refuses tokens living longer than 65 s). */
  sign: (nodeId: string) => Promise<string>;
  panelBase: string;
  panelToken: string;
  dir: string;
}

const tsx = (file: string, args: string[] = []) =>
  spawn(process.execPath, ['--import', 'tsx', file, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });

/** A daemon from `config` (loopback, a free port, its own data folder); its pid and port. */
async function startDaemon(dir: string, name: string, config: object) {
  const data = join(dir, name);
  const file = join(dir, `${name}.json`);
  await writeFile(
    file,
    JSON.stringify({ ...config, host: '127.0.0.1', port: 0, dataDir: data, logLevel: 'warn' }),
  );
  const child = tsx(DAEMON_MAIN, [file]);
  const port = Number(await lineFrom(createInterface({ input: child.stdout! }), 'PORT '));
  return { child, port };
}

/** Creates and starts the fake game as `id` straight on a daemon (admin token for its node). */
async function createServer(base: string, admin: string, id: string): Promise<void> {
  const definition = {
    run: { command: `${process.execPath} ${FAKE_GAME}`, stop: 'stop' },
    environment: { type: 'standard' },
  };
  const auth = { authorization: `Bearer ${admin}` };
  for (const [what, path, init] of [
    [
      'create',
      '',
      {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(definition),
      },
    ],
    ['start', '/start?wait=true', { method: 'POST', headers: auth }],
  ] as const) {
    const res = await fetch(`${base}/daemon/server/${id}${path}`, init);
    if (!res.ok) throw new Error(`${what} ${id}: HTTP ${res.status} ${await res.text()}`);
  }
}

/** Polls the panel until the outbound node's link is connected (the daemon dials with backoff). */
async function linkConnected(panelBase: string, token: string, nodeId: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await fetch(`${panelBase}/api/nodes/${nodeId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const node = (await res.json()) as { linkState?: { connected?: boolean } | null };
    if (node.linkState?.connected) return;
    if (Date.now() > deadline) throw new Error(`the outbound node never connected: ${JSON.stringify(node)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function startBench(): Promise<Bench> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-bench-link-'));
  const panel = tsx(join(import.meta.dirname, 'panel-main.ts'));
  const panelLines = createInterface({ input: panel.stdout! });
  const nodes = JSON.parse(await lineFrom(panelLines, 'NODES ')) as Record<
    'in' | 'out',
    { nodeId: string }
  > & {
    privateKeyPem: string;
  };
  const inbound = await startDaemon(dir, 'in', nodes.in);
  const outbound = await startDaemon(dir, 'out', nodes.out);
  panel.stdin?.write(`PORT ${inbound.port}\n`);
  const ready = JSON.parse(await lineFrom(panelLines, 'READY ')) as {
    port: number;
    token: string;
    outId: string;
  };
  const panelBase = `http://127.0.0.1:${ready.port}`;
  await linkConnected(panelBase, ready.token, ready.outId);
  const key = await importPKCS8(nodes.privateKeyPem, 'ES256');
  const sign = (nodeId: string) =>
    new SignJWT({ server: '*', perms: [...serverPermissions], admin: true })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer(DAEMON_TOKEN_ISSUER)
      .setAudience(daemonTokenAudience(nodeId))
      .setSubject('bench')
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(key);
  const direct = {
    inbound: { base: `http://127.0.0.1:${inbound.port}`, nodeId: nodes.in.nodeId },
    outbound: { base: `http://127.0.0.1:${outbound.port}`, nodeId: nodes.out.nodeId },
  };
  for (const link of ['inbound', 'outbound'] as const)
    await createServer(direct[link].base, await sign(direct[link].nodeId), SERVER[link]);
  return {
    panel,
    daemons: { inbound: inbound.child, outbound: outbound.child },
    direct,
    sign,
    panelBase,
    panelToken: ready.token,
    dir,
  };
}

/** Sends the fake game a console command straight on its daemon (the subscribers only listen). */
async function command(b: Bench, link: Link, line: string): Promise<void> {
  const { base, nodeId } = b.direct[link];
  const res = await fetch(`${base}/daemon/server/${SERVER[link]}/console`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await b.sign(nodeId)}`, 'content-type': 'text/plain' },
    body: line,
  });
  if (res.status !== 204) throw new Error(`console command failed: HTTP ${res.status}`);
}

export interface RoundResult {
  p50: number;
  p99: number;
  max: number;
  lost: number;
  deliveries: number;
  /** CPU seconds the daemon and the panel spent on the round: what the link costs, whatever the machine's load. */
  daemonCpu: number;
  panelCpu: number;
}

/** CPU seconds between two samples (/proc ticks are 1/100 s). */
const cpuSeconds = (a: { ticks: number }, b: { ticks: number }) => (b.ticks - a.ticks) / 100;

/** `count` subscribers through the panel's proxy on `link`'s server; the game writes `rate` lines/s for `seconds`. */
async function round(
  b: Bench,
  link: Link,
  rate: number,
  seconds: number,
  count: number,
): Promise<RoundResult> {
  const url = `${b.panelBase.replace('http', 'ws')}/proxy/daemon/socket/${SERVER[link]}`;
  const subs = await Promise.all(Array.from({ length: count }, () => Subscriber.open(url, b.panelToken)));
  const armed = await Promise.all(subs.map((s) => s.arm('rate done')));
  const daemon = b.daemons[link];
  const [daemonBefore, panelBefore] = [sampleProcess(daemon.pid!), sampleProcess(b.panel.pid!)];
  await command(b, link, `rate ${rate} ${seconds}`);
  await Promise.all(armed.map((a) => a.reached));
  const [daemonAfter, panelAfter] = [sampleProcess(daemon.pid!), sampleProcess(b.panel.pid!)];
  await Promise.all(subs.map((s) => s.close()));
  const all = subs.flatMap((s) => s.latencies).sort((x, y) => x - y);
  const expected = rate * seconds;
  const result = {
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    max: all.at(-1) ?? NaN,
    lost: subs.reduce((n, s) => n + (expected - s.lines), 0),
    deliveries: expected * count,
    daemonCpu: cpuSeconds(daemonBefore, daemonAfter),
    panelCpu: cpuSeconds(panelBefore, panelAfter),
  };
  console.log(
    `[${link}] ${rate} lines/s for ${seconds} s, ${count} subscribers: latency p50 ${fmt(result.p50, 0)} ms, ` +
      `p99 ${fmt(result.p99, 0)} ms, max ${fmt(result.max, 0)} ms; lost ${result.lost} of ${result.deliveries} ` +
      `line deliveries; daemon CPU ${fmt(result.daemonCpu, 2)} s (${fmt(cpuBetween(daemonBefore, daemonAfter))}%), ` +
      `panel CPU ${fmt(result.panelCpu, 2)} s (${fmt(cpuBetween(panelBefore, panelAfter))}%), ` +
      `panel RSS ${fmt(panelAfter.rss / 1048576)} MiB; ` +
      `load average ${load()}`,
  );
  return result;
}

/**
 * On a shared machine the other load delays every hop of the path; the outbound link has one more (the daemon
 * joins each stream to its own listener), so it suffers more from it. As root, the benchmark and every child
 * it starts (they inherit it) run at nice BENCH_LINK_NICE (default −10) to measure the link rather than the
 * neighbours. Answers the nice value in force.
 */
function raisePriority(): number {
  const wanted = Number(process.env.BENCH_LINK_NICE ?? -10);
  try {
    setPriority(wanted);
  } catch {
    // Not root: the run goes on at the inherited priority, which the method line reports.
  }
  return getPriority();
}

/** The 1, 5 and 15 minute load averages: the figures mean little without them on a shared machine. */
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? NaN;

/** Alternating rounds; the summary compares the medians of each link's per-round figures. */
export async function runOutboundConsoleBench({
  rounds = 3,
  rate = 10_000,
  seconds = 5,
  subscribers = 20,
} = {}): Promise<void> {
  console.log('# Console latency: outbound node link vs inbound');
  const nice = raisePriority();
  console.log(
    'Method: one panel process (SQLite) with two nodes on loopback, both plain HTTP: `inbound` (the panel dials ' +
      'the daemon) and `outbound` (the daemon dials the panel; proxied requests and sockets are streams of one ' +
      "multiplexed WebSocket). Each daemon is its own process from its node's deployment config, running the fake " +
      `game (apps/daemon/test/fixtures/fake-game.mjs). ${subscribers} websocket subscribers, each its own process, ` +
      "connect to the panel's /proxy/daemon/socket/<server> with an admin session (the browser's path). " +
      `\`rate ${rate} ${seconds}\` stamps each line with Date.now() when the game writes it; latency = arrival at ` +
      'the subscriber − stamp (ms resolution, all subscribers pooled); lost = lines a subscriber never got; CPU = ' +
      'seconds of CPU the daemon and the panel used during the round (/proc/<pid>/stat). One uncounted warm-up ' +
      'round per link, then ' +
      `${rounds} rounds, inbound and outbound alternating. Every process of the benchmark runs at nice ${nice} ` +
      `(inherited from this one). Load average before: ${load()}.`,
  );
  const b = await startBench();
  const results: Record<Link, RoundResult[]> = { inbound: [], outbound: [] };
  try {
    // One full uncounted round per link first: the first sustained burst through a fresh link runs cold (JIT,
    // buffers and heaps growing) and was up to a second slower at p99 than the rounds after it; printed apart.
    console.log('warm-up (not counted):');
    for (const link of ['inbound', 'outbound'] as const) await round(b, link, rate, seconds, subscribers);
    for (let i = 0; i < rounds; i += 1) {
      for (const link of ['inbound', 'outbound'] as const)
        results[link].push(await round(b, link, rate, seconds, subscribers));
    }
  } finally {
    for (const child of [b.daemons.inbound, b.daemons.outbound, b.panel]) await stop(child);
    await rm(b.dir, { recursive: true, force: true });
  }
  const m = (link: Link, key: keyof RoundResult) => median(results[link].map((r) => r[key]));
  const lost = (link: Link) => results[link].reduce((n, r) => n + r.lost, 0);
  const deliveries = (link: Link) => results[link].reduce((n, r) => n + r.deliveries, 0);
  console.log(
    `${rate} lines/s, ${subscribers} subscribers, ${rounds} alternating rounds (medians of the rounds): ` +
      `p50 inbound ${fmt(m('inbound', 'p50'), 0)} ms, outbound ${fmt(m('outbound', 'p50'), 0)} ms ` +
      `(added ${fmt(m('outbound', 'p50') - m('inbound', 'p50'), 0)} ms); p99 inbound ${fmt(m('inbound', 'p99'), 0)} ms, ` +
      `outbound ${fmt(m('outbound', 'p99'), 0)} ms (added ${fmt(m('outbound', 'p99') - m('inbound', 'p99'), 0)} ms, ` +
      `target ≤ +5 ms); lost inbound ${lost('inbound')} of ${deliveries('inbound')}, outbound ${lost('outbound')} of ` +
      `${deliveries('outbound')}; CPU per round daemon inbound ${fmt(m('inbound', 'daemonCpu'), 2)} s, outbound ` +
      `${fmt(m('outbound', 'daemonCpu'), 2)} s, panel inbound ${fmt(m('inbound', 'panelCpu'), 2)} s, outbound ` +
      `${fmt(m('outbound', 'panelCpu'), 2)} s; load average after ${load()}`,
  );
}
