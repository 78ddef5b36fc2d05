/**
 * `npm run bench:files`: listing 10,000 files through the panel proxy (median of 5), uploading a
 * 200 MiB file through the panel proxy (MB/s, median of 3; then the same with a lean client, lean-upload.ts, and
 * from Debian's Chromium through the file manager as a user does, browser-upload.ts), and SFTP put/get of the same file with OpenSSH's
 * client against the daemon vs two OpenSSH references (median of 3 each): a real sshd on loopback with sftp-server
 * as its subsystem (like for like, sshd-reference.ts) and sftp-server over pipes (`sftp -D`, no SSH transport: an upper bound). Real panel (SQLite) and
 * real daemon, each in its own process (setup.ts); the client runs in this one; loopback. Method and figures: docs/performance.md "Files".
 */
// Tags this process so no child outlives it, whatever way the run ends (children.ts).
import '../children';
import { spawn } from 'node:child_process';
import { linkSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browserUploads } from './browser-upload';
import { leanUpload } from './lean-upload';
import { filesBenchSetup } from './setup';
import {
  OPENSSH_SFTP_SERVER,
  referenceMissing,
  sshdReferenceMissing,
  withLoopbackSshd,
} from './sshd-reference';

// HEARTH_BENCH_QUICK=1 shrinks the sizes to check the harness itself.
const QUICK = process.env.HEARTH_BENCH_QUICK === '1';
const LIST_FILES = QUICK ? 200 : 10_000;
const UPLOAD_BYTES = (QUICK ? 8 : 200) * 1024 * 1024;
// BENCH_FILES_ONLY=list,upload,browser,sftp runs only those parts (all by default), to iterate on one of them.
const ONLY = new Set(
  (process.env.BENCH_FILES_ONLY ?? 'list,upload,browser,sftp').split(',').map((s) => s.trim()),
);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** Async: the bench process keeps its loop free while OpenSSH's client runs. */
function sftpBatch(args: string[], commands: string[], cwd: string, password?: string): Promise<void> {
  const batch = join(cwd, 'batch');
  writeFileSync(batch, `${commands.join('\n')}\n`);
  // Options before -b: sftp's -b adds BatchMode=yes, and ssh keeps the first value it reads.
  // `-D server` has no destination: the last word is then the server program, which must follow -D.
  const direct = args[0] === '-D';
  const [options, target] = direct ? [[], args] : [args.slice(0, -1), args.slice(-1)];
  const base = [...options, '-oLogLevel=ERROR', '-b', batch, ...target];
  const [cmd, argv] = password ? ['sshpass', ['-p', password, 'sftp', ...base]] : ['sftp', base];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`sftp failed: ${stderr}`))));
  });
}

async function medianOf3(work: () => Promise<unknown>): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 3; i += 1) runs.push(await timed(work));
  return median(runs);
}

type Setup = Awaited<ReturnType<typeof filesBenchSetup>>;
type Results = Record<string, number | number[] | string>;

async function benchList(f: Setup, proxy: string, auth: Record<string, string>): Promise<Results> {
  await mkdir(join(f.serverRoot, 'many'));
  for (let i = 0; i < LIST_FILES; i += 1) await writeFile(join(f.serverRoot, 'many', `file-${i}.txt`), 'x');
  const list = async () => {
    const res = await fetch(`${proxy}/file/many`, { headers: auth });
    const body = (await res.json()) as { files: unknown[] };
    if (body.files.length !== LIST_FILES + 1) throw new Error(`listed ${body.files.length}`);
  };
  await list(); // warm-up
  const listMs: number[] = [];
  for (let i = 0; i < 5; i += 1) listMs.push(await timed(list));
  return {
    listing10kMedianMs: Number(median(listMs).toFixed(1)),
    listingRunsMs: listMs.map((x) => Number(x.toFixed(1))),
  };
}

async function benchUpload(payload: Buffer, proxy: string, token: string): Promise<Results> {
  const auth = { authorization: `Bearer ${token}` };
  // The client holds the file in memory (an in-memory Blob); the panel and daemon only stream it.
  const blob = new Blob([payload]);
  const upload = async () => {
    const form = new FormData();
    form.append('file', blob, 'big.bin');
    const res = await fetch(`${proxy}/file/big.bin`, { method: 'PUT', headers: auth, body: form });
    if (res.status !== 204) throw new Error(`upload ${res.status}: ${await res.text()}`);
  };
  const uploadMs: number[] = [];
  for (let i = 0; i < 3; i += 1) uploadMs.push(await timed(upload));
  // The same request from a lean client (lean-upload.ts): what the panel and the daemon sustain.
  const lean = async () => {
    const status = await leanUpload(`${proxy}/file/big.bin`, token, payload, 'big.bin');
    if (status !== 204) throw new Error(`lean upload ${status}`);
  };
  const leanMs: number[] = [];
  for (let i = 0; i < 3; i += 1) leanMs.push(await timed(lean));
  return {
    upload200MiBMedianMBps: Number(mbps(UPLOAD_BYTES, median(uploadMs)).toFixed(1)),
    uploadRunsMBps: uploadMs.map((x) => Number(mbps(UPLOAD_BYTES, x).toFixed(1))),
    uploadLeanClientMedianMBps: Number(mbps(UPLOAD_BYTES, median(leanMs)).toFixed(1)),
    uploadLeanClientRunsMBps: leanMs.map((x) => Number(mbps(UPLOAD_BYTES, x).toFixed(1))),
  };
}

/** The browser's upload through the file manager (browser-upload.ts), three fresh names, median. */
async function benchBrowserUpload(f: Setup, work: string): Promise<Results> {
  const files = [1, 2, 3].map((n) => {
    const copy = join(work, `browser-${n}.bin`);
    linkSync(join(work, 'big.bin'), copy);
    return copy;
  });
  const runs = await browserUploads(f, files, UPLOAD_BYTES);
  if (typeof runs === 'string') {
    console.log(`browser upload: ${runs}`);
    return { browserUpload200MiBMedianMBps: runs };
  }
  return {
    browserUpload200MiBMedianMBps: Number(mbps(UPLOAD_BYTES, median(runs)).toFixed(1)),
    browserUploadRunsMBps: runs.map((x) => Number(mbps(UPLOAD_BYTES, x).toFixed(1))),
  };
}

type Rates = { put: number; get: number };
const share = (ours: number, reference: number) => Number(((100 * ours) / reference).toFixed(0));

/** The reference's figures and the daemon's share of them, or the reason it was skipped (also printed). */
function referenceResults(name: string, ours: Rates, ref: Rates | string): Results {
  if (typeof ref === 'string') console.log(`${name}: ${ref}`);
  const Name = name[0]?.toUpperCase() + name.slice(1);
  const figure = (key: keyof Rates) => (typeof ref === 'string' ? ref : Number(ref[key].toFixed(1)));
  const percent = (key: keyof Rates) => (typeof ref === 'string' ? ref : share(ours[key], ref[key]));
  return {
    [`${name}PutMBps`]: figure('put'),
    [`${name}GetMBps`]: figure('get'),
    [`sftpPutShareOf${Name}Percent`]: percent('put'),
    [`sftpGetShareOf${Name}Percent`]: percent('get'),
  };
}

async function benchSftp(f: Setup, work: string): Promise<Results> {
  const sshArgs = [
    '-oStrictHostKeyChecking=no',
    '-oUserKnownHostsFile=/dev/null',
    '-oBatchMode=no',
    '-oPubkeyAuthentication=no',
    '-oPreferredAuthentications=password',
    '-oNumberOfPasswordPrompts=1',
  ];
  const ours = [...sshArgs, '-P', String(f.sftpPort), `${f.admin.email}#${f.serverId}@127.0.0.1`];
  const retry = (work: () => Promise<void>) => () => work().catch(() => work()); // one retry on a loaded box
  // put then get, median of 3 each; `remote` is absolute for sshd, whose session starts in the user's home.
  const putGet = async (args: string[], remote: string, password?: string): Promise<Rates> => {
    const rate = async (command: string) => {
      const ms = await medianOf3(retry(() => sftpBatch(args, [command], work, password)));
      const got = command.startsWith('get') ? statSync(join(work, 'got.bin')).size : UPLOAD_BYTES;
      if (got !== UPLOAD_BYTES) throw new Error(`get size mismatch: ${got}`);
      return mbps(UPLOAD_BYTES, ms);
    };
    rmSync(join(work, 'got.bin'), { force: true });
    return { put: await rate(`put big.bin ${remote}`), get: await rate(`get ${remote} got.bin`) };
  };
  const daemon = await putGet(ours, 'sftp-big.bin', f.admin.password);
  // OpenSSH's sshd + sftp-server on loopback, key login: the like-for-like reference (SSH transport included).
  const sshd =
    sshdReferenceMissing() ?? (await withLoopbackSshd((args) => putGet(args, join(work, 'sshd-big.bin'))));
  // OpenSSH's server without the SSH transport (`sftp -D` talks to it over pipes): an upper bound.
  const pipes =
    referenceMissing(OPENSSH_SFTP_SERVER) ?? (await putGet(['-D', OPENSSH_SFTP_SERVER], 'pipes-big.bin'));
  return {
    sftpPutMBps: Number(daemon.put.toFixed(1)),
    sftpGetMBps: Number(daemon.get.toFixed(1)),
    ...referenceResults('opensshSshd', daemon, sshd),
    ...referenceResults('opensshSftpServerPipes', daemon, pipes),
  };
}

export async function runFilesBench(): Promise<void> {
  const f = await filesBenchSetup();
  const work = mkdtempSync(join(tmpdir(), 'hearth-bench-files-'));
  try {
    const auth = { authorization: `Bearer ${f.admin.token}` };
    const proxy = `${f.panelUrl}/proxy/daemon/server/${f.serverId}`;
    let results: Results = {};
    if (ONLY.has('list')) results = { ...results, ...(await benchList(f, proxy, auth)) };
    const payload = randomBytes(UPLOAD_BYTES);
    writeFileSync(join(work, 'big.bin'), payload);
    if (ONLY.has('upload')) results = { ...results, ...(await benchUpload(payload, proxy, f.admin.token)) };
    if (ONLY.has('browser')) results = { ...results, ...(await benchBrowserUpload(f, work)) };
    if (ONLY.has('sftp')) results = { ...results, ...(await benchSftp(f, work)) };
    console.log(JSON.stringify({ bench: 'files', node: process.version, ...results }, null, 2));
  } finally {
    rmSync(work, { recursive: true, force: true });
    await f.close();
  }
}

if (process.argv[1]?.endsWith(`bench/files/run.ts`)) await runFilesBench();
