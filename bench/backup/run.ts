/**
 * `npm run bench:backup` (docs/performance.md "Backups"): on a ≥ 1 GiB server folder (dataset.ts), in one run:
 * restic run by hand, Hearth's first backup through the panel's API (daemon in its own process, bench/files'
 * setup) and `tar czf` of the same folder; Hearth's second backup after 1 % of the data changed (time, bytes
 * added to the repository); restoring one file; the peak extra disk during the first backup (beyond the
 * repository it leaves) and the daemon's RSS growth meanwhile. Exits non-zero on a failure; SIGINT/SIGTERM stop
 * the children and remove the temp folders. HEARTH_BENCH_QUICK=1 checks the harness on a small folder.
 */
// Tags this process so no child outlives it, whatever way the run ends (children.ts).
import '../children';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  closeSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { filesBenchSetup, type FilesBenchSetup } from '../files/setup';
import {
  ensureDataset,
  LARGE_BYTES,
  largePath,
  pseudoRandom,
  SMALL_FILES,
  smallPath,
  smallSize,
} from './dataset';
import { rssBytes, sampled, usedBytes } from './sampler';

const children = new Set<ChildProcess>();
const temps: string[] = [];
let setup: FilesBenchSetup | undefined;

function cleanup(): void {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    cleanup();
    void (setup?.close() ?? Promise.resolve()).finally(() => process.exit(130));
  });

function run(cmd: string, args: string[], cwd?: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(child);
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => {
      children.delete(child);
      if (code === 0) done();
      else fail(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err.slice(-500)}`));
    });
  });
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await work();
  return [value, (performance.now() - start) / 1000];
}

const du = (path: string) =>
  Number(spawnSync('du', ['-sb', path], { encoding: 'utf8' }).stdout.split('\t')[0]);
const mib = (b: number) => `${(b / 1048576).toFixed(1)} MiB`;
const mbps = (b: number, s: number) => `${(b / 1e6 / s).toFixed(1)} MB/s`;
const temp = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `hearth-bench-backup-${name}-`));
  temps.push(dir);
  return dir;
};

/** The daemon's process: the one whose command line names the bench's node.json. */
function daemonPid(dataDir: string): number {
  const want = join(dataDir, 'node.json');
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(want)) return Number(entry);
    } catch {
      // A process that ended while the list was read.
    }
  }
  throw new Error('daemon process not found');
}

/** Changes 1 % of the folder: 1 % of the small files rewritten, and a region inside one large file. */
function changeOnePercent(folder: string, total: number): number {
  let changed = 0;
  for (let i = 0; i < SMALL_FILES; i += 100) {
    const path = join(folder, smallPath(i));
    writeFileSync(`${path}.new`, pseudoRandom(900_000 + i, smallSize(i)));
    renameSync(`${path}.new`, path); // a new inode: the shared dataset keeps its copy
    changed += smallSize(i);
  }
  const region = Math.max(0, Math.floor(total / 100) - changed);
  const big = join(folder, largePath(0));
  copyFileSync(big, `${big}.new`);
  const fd = openSync(`${big}.new`, 'r+');
  writeSync(fd, pseudoRandom(777, region), 0, region, Math.floor(LARGE_BYTES / 3));
  closeSync(fd);
  renameSync(`${big}.new`, big);
  return changed + region;
}

async function main(): Promise<void> {
  const loadBefore = loadavg();
  const dataset = await ensureDataset(
    process.env.BENCH_BACKUP_DATA ?? join(tmpdir(), 'hearth-bench-backup-data'),
  );
  const bytes = du(dataset);
  setup = await filesBenchSetup();
  const { panelUrl, admin, serverId, serverRoot } = setup;
  const dataDir = resolve(serverRoot, '../..');
  const pid = daemonPid(dataDir);
  mkdirSync(serverRoot, { recursive: true });
  await run('cp', ['-al', `${dataset}/.`, serverRoot]);
  // The same warm page cache for all three: read everything once.
  await run('sh', ['-c', `find . -type f -exec cat {} + > /dev/null`], serverRoot);
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${panelUrl}/proxy/daemon/server/${serverId}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${admin.token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  // restic by hand: a fresh repository on the same disk, the same command the daemon runs.
  const byHand = temp('restic');
  writeFileSync(join(byHand, 'pw'), 'bench-password');
  const restic = [
    '-r',
    join(byHand, 'repo'),
    '--password-file',
    join(byHand, 'pw'),
    '--cache-dir',
    join(byHand, 'cache'),
  ];
  const env = { ...process.env, TMPDIR: byHand };
  await run('restic', [...restic, 'init'], undefined, env);
  const [, resticSeconds] = await timed(() =>
    run('restic', [...restic, 'backup', '--json', '--host', 'bench', '.'], serverRoot, env),
  );
  rmSync(byHand, { recursive: true, force: true });

  const repository = join(dataDir, 'backups', 'repository');
  const staging = [join(dataDir, 'backups', 'tmp'), join(dataDir, 'backups', 'cache')];
  const rssBefore = rssBytes(pid);
  const usedBefore = usedBytes(staging);
  const [{ peaks }, hearthSeconds] = await timed(() => sampled(pid, staging, () => api('POST', '/backup')));
  const repoAfterFirst = du(repository);

  const tarDir = temp('tar');
  const [, tarSeconds] = await timed(() =>
    run('tar', ['czf', join(tarDir, 'server.tar.gz'), '-C', serverRoot, '.']),
  );
  const tarBytes = du(join(tarDir, 'server.tar.gz'));
  rmSync(tarDir, { recursive: true, force: true });

  const changed = changeOnePercent(serverRoot, bytes);
  const [, secondSeconds] = await timed(() => api('POST', '/backup'));
  const repoAfterSecond = du(repository);
  const list = await api<{ backups: { id: string; sizeAdded: number | null }[] }>('GET', '/backup');
  const newest = list.backups[0];
  if (!newest) throw new Error('no snapshot listed');
  const [, restoreSeconds] = await timed(() =>
    api('POST', `/backup/${newest.id}/restore`, { paths: [smallPath(1)] }),
  );
  // The per-step breakdown (less load-sensitive than the totals): the restic runs the daemon makes, timed by hand
  // on its repository — a bare start (opening the repository: the fixed cost of every run), the lookup of a new
  // snapshot by the summary's short id, and a one-file restore's listing and restore.
  const daemonRestic = [
    '-r',
    repository,
    '--password-file',
    join(dataDir, 'backups', 'repository.key'),
    '--cache-dir',
    join(dataDir, 'backups', 'cache'),
  ];
  const restoreTarget = temp('restore');
  const steps: [string, string[]][] = [
    ['restic start (cat config)', ['cat', 'config', '--no-lock']],
    ['lookup by short id (snapshots)', ['snapshots', '--json', '--no-lock', newest.id.slice(0, 8)]],
    [
      'restore plan (ls --recursive)',
      ['ls', '--json', '--no-lock', '--recursive', newest.id, `/${smallPath(1)}`],
    ],
    [
      'restore one file (restore --include)',
      ['restore', newest.id, '--target', restoreTarget, '--include', `/${smallPath(1)}`],
    ],
  ];
  const stepRows: [string, string][] = [];
  for (const [name, args] of steps) {
    const [, seconds] = await timed(() => run('restic', [...daemonRestic, ...args]));
    stepRows.push([`  step: ${name}`, `${seconds.toFixed(2)} s`]);
  }
  const loadAfter = loadavg();

  const rows: [string, string][] = [
    ['server folder', `${mib(bytes)} (${SMALL_FILES} small files + 4 × ${mib(LARGE_BYTES)})`],
    ['restic backup by hand (first)', `${resticSeconds.toFixed(1)} s, ${mbps(bytes, resticSeconds)}`],
    [
      'Hearth first backup (API)',
      `${hearthSeconds.toFixed(1)} s, ${mbps(bytes, hearthSeconds)} = ${((resticSeconds / hearthSeconds) * 100).toFixed(0)} % of restic's throughput (target ≥ 90 %)`,
    ],
    ['tar czf', `${tarSeconds.toFixed(1)} s, ${mbps(bytes, tarSeconds)} (archive ${mib(tarBytes)})`],
    ['changed for the second backup', `${mib(changed)} (${((changed / bytes) * 100).toFixed(2)} %)`],
    [
      'Hearth second backup',
      `${secondSeconds.toFixed(1)} s = ${((secondSeconds / hearthSeconds) * 100).toFixed(1)} % of the first (target ≤ 10 %)`,
    ],
    [
      'repository growth (second)',
      `${mib(repoAfterSecond - repoAfterFirst)} = ${(((repoAfterSecond - repoAfterFirst) / bytes) * 100).toFixed(2)} % of the folder (target ≤ 2 %); sizeAdded ${mib(newest.sizeAdded ?? 0)}`,
    ],
    ['restore one file (API)', `${restoreSeconds.toFixed(2)} s (target < 1 s)`],
    ...stepRows,
    [
      'peak extra disk during backup',
      `${mib(peaks.used - usedBefore)} = ${(((peaks.used - usedBefore) / bytes) * 100).toFixed(1)} % of the folder in restic's tmp/ + cache/ (target ≤ 5 %); repository after: ${mib(repoAfterFirst)}`,
    ],
    [
      'daemon RSS growth during backup',
      `${mib(Math.max(0, peaks.rss - rssBefore))} (${mib(rssBefore)} → peak ${mib(peaks.rss)}; target < 20 MiB)`,
    ],
    [
      'load average (1/5/15 min)',
      `before ${loadBefore.map((l) => l.toFixed(1)).join(' / ')}, after ${loadAfter.map((l) => l.toFixed(1)).join(' / ')}`,
    ],
  ];
  for (const [name, value] of rows) console.log(`${name.padEnd(34)} ${value}`);
}

try {
  await main();
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  cleanup();
  await setup?.close();
}
