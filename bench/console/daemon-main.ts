/**
 * The daemon under benchmark, in its own process so its CPU and RSS can be read from /proc. It also watches
 * its own event loop: a line `eld` on stdin prints `ELD <p50> <p99> <max> <busy>` since the last one — delay in ms
 * and the share of time the loop was busy (event-loop utilisation), which tells a blocked daemon (high
 * utilisation) apart from a machine too busy to schedule it (delay with low utilisation) — and the p99 and max
 * CPU milliseconds spent between two 1 ms timer ticks (the longest blocking stretch, immune to a busy machine).
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { loadDaemonConfig, startDaemon } from '@hearth/daemon';

const config = loadDaemonConfig(process.argv[2] ?? 'node.json');
const daemon = await startDaemon(config);
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
let utilisation = performance.eventLoopUtilization();
// CPU time (not wall time) the daemon spends between two 1 ms timer ticks: the longest stretch of work that
// blocks its loop, which a busy machine cannot inflate (descheduled time is not CPU time).
let blocks: number[] = [];
let lastCpu = process.cpuUsage();
setInterval(() => {
  const cpu = process.cpuUsage();
  blocks.push((cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000);
  lastCpu = cpu;
}, 1).unref();
console.log(`PORT ${daemon.port}`);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'eld') return;
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  const busy = performance.eventLoopUtilization(utilisation).utilization;
  const sorted = blocks.sort((a, b) => a - b);
  const block = (p: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0).toFixed(1);
  blocks = [];
  console.log(
    `ELD ${ms(delay.percentile(50))} ${ms(delay.percentile(99))} ${ms(delay.max)} ${(busy * 100).toFixed(0)} ${block(0.99)} ${block(1)}`,
  );
  delay.reset();
  utilisation = performance.eventLoopUtilization();
});
process.on('SIGTERM', () => {
  daemon.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
