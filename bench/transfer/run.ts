/**
 * `npm run bench:transfer` (docs/performance.md § Server transfer): a server holding ≥ 1 GiB (bench/backup's
 * dataset: 4 × 224 MiB incompressible files + 6,000 files of 4–68 KiB in 60 folders) moved from node A to node B
 * through the panel's API, BENCH_TRANSFER_ROUNDS times (default 3): seconds from the POST to `done`, MB/s of file
 * contents, and every file's SHA-256 on B checked against the dataset. Then, unless BENCH_TRANSFER_PROFILE_STEPS=0,
 * the same folder through each step alone in this process (the export's tar + SHA-256, then tar into the import's
 * extractor with no HTTP), wall and CPU seconds, so the share of the HTTP hops shows. Each round prints the CPU
 * seconds of the panel and both daemons: on a shared machine those, not the wall time, say what the move costs. Exits non-zero on a failed move
 * or a checksum mismatch. HEARTH_BENCH_QUICK=1 checks the harness on a small folder.
 */
// Tags this process so no child outlives it, whatever way the run ends (children.ts).
import '../children';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractInto } from '../../apps/daemon/src/transfer/extract';
import { packFolder } from '../../apps/daemon/src/transfer/pack';
import { ensureDataset } from '../backup/dataset';
import { differences, manifest, round, transferBenchSetup, type TransferBench } from './transfer';

const ROUNDS = Number(process.env.BENCH_TRANSFER_ROUNDS ?? 3);
const TARGET_MB_S = 200;
const MB = 1e6;
const fmt = (n: number, digits = 1) => n.toFixed(digits);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Seconds `fn` takes, and the CPU seconds (user + system, every thread) this process used meanwhile. */
async function timed(fn: () => Promise<unknown>): Promise<{ s: number; cpu: number }> {
  const began = performance.now();
  const cpu = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(cpu);
  return { s: (performance.now() - began) / 1000, cpu: (used.user + used.system) / 1e6 };
}

/** The export's own work (daemon/src/transfer/export.ts): the daemon's tar writer over the folder, hashed, dropped. */
async function tarAndHash(root: string): Promise<number> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of packFolder(root)) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  hash.digest();
  return bytes;
}

/** Export and import in one process, no HTTP: the pack piped into the daemon's extractor (hashing as B does). */
async function tarIntoExtract(root: string): Promise<void> {
  const target = mkdtempSync(join(tmpdir(), 'hearth-bench-transfer-extract-'));
  try {
    const hash = createHash('sha256');
    await extractInto(target, packFolder(root), (chunk) => hash.update(chunk));
  } finally {
    rmSync(target, { recursive: true, force: true });
  }
}

async function profileSteps(dataset: string, bytes: number): Promise<void> {
  console.log('\nsteps alone, in this process (same folder, warm page cache):');
  const rate = ({ s, cpu }: { s: number; cpu: number }) =>
    `${fmt(s, 2)} s  ${fmt(bytes / MB / s, 0)} MB/s  (${fmt(cpu, 2)} CPU s)`;
  console.log(`  tar pack + SHA-256 (export's work)  ${rate(await timed(() => tarAndHash(dataset)))}`);
  console.log(`  tar pack → extractor (no HTTP)      ${rate(await timed(() => tarIntoExtract(dataset)))}`);
}

async function main(): Promise<void> {
  console.log(`bench:transfer — load before: ${load()} (${cpus().length} cores)`);
  const dataset = await ensureDataset(
    process.env.BENCH_TRANSFER_DATA ?? join(tmpdir(), 'hearth-bench-backup-data'),
  );
  const expected = await manifest(dataset);
  const bench: TransferBench = await transferBenchSetup();
  const rates: number[] = [];
  let bytes = 0;
  try {
    for (let i = 1; i <= ROUNDS; i += 1) {
      const result = await round(bench, dataset, `bench transfer ${i}`);
      bytes = result.total;
      const onB = join(bench.b.serversDir, result.id);
      const diff = differences(expected, await manifest(onB));
      if (diff.length > 0) throw new Error(`round ${i}: B differs from A: ${diff.join(', ')}`);
      if (existsSync(join(bench.a.serversDir, result.id)))
        throw new Error(`round ${i}: A still has the folder`);
      const mbps = result.total / MB / result.seconds;
      rates.push(mbps);
      const phases = Object.entries(result.phases)
        .map(([phase, s]) => `${phase} ${fmt(s, 2)}`)
        .join(', ');
      console.log(
        `round ${i}: ${fmt(result.total / MB, 0)} MB in ${result.files} files (${fmt(result.tarBytes / MB, 0)} MB of ` +
          `tar) in ${fmt(result.seconds, 2)} s = ${fmt(mbps)} MB/s; ${expected.size} SHA-256 equal on B; phases (s): ` +
          `${phases}; load ${load()}`,
      );
      const { panel, a, b } = result.cpu;
      const busiest = Math.max(panel, a, b);
      console.log(
        `  CPU seconds: panel ${fmt(panel, 2)}, node A ${fmt(a, 2)}, node B ${fmt(b, 2)} (sum ${fmt(panel + a + b, 2)}); ` +
          `the busiest process alone would allow ${fmt(result.total / MB / busiest, 0)} MB/s on a free core`,
      );
      await bench.api('DELETE', `/api/servers/${result.id}`);
    }
  } finally {
    await bench.close();
  }
  const sorted = rates.slice().sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  console.log(
    `\nmedian ${fmt(median)} MB/s over ${ROUNDS} rounds (best ${fmt(sorted.at(-1) ?? 0)}; target ≥ ${TARGET_MB_S}: ` +
      `${median >= TARGET_MB_S ? 'met' : 'NOT met'}); load after: ${load()}`,
  );
  console.log(
    'method: POST /api/servers/{id}/transfer → GET …/transfer every 100 ms until done; MB = 10^6 bytes of file ' +
      'contents; panel and both daemons in their own processes on loopback (A 127.0.0.1, B 127.0.0.2), node links ' +
      `${process.env.BENCH_TRANSFER_TLS === 'plain' ? 'plain HTTP' : 'pinned HTTPS'}`,
  );
  if (process.env.BENCH_TRANSFER_PROFILE_STEPS !== '0') await profileSteps(dataset, bytes);
}

await main();
