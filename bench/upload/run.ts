/**
 * `npm run bench:upload`: a 2 GiB upload through the panel proxy to the local node (`hearth start` in its own
 * process; SQLite; loopback), three ways, each once per round, best of `ROUNDS`:
 * - multipart `PUT …/file/{path}` in one request (SPEC's upload, what API clients use), streamed;
 * - tus with tus-js-client in this process, 50 MiB chunks (the panel's default `web.uploadChunkBytes`), as the
 *   file manager sends it;
 * - tus with a lean client (a `PATCH` per 50 MiB chunk streamed from the file with fetch), to tell the protocol's
 *   cost from the client library's.
 * Each file is checked by size on the node and removed. Figures and method: docs/performance.md "Resumable uploads".
 */
// Tags this process so no child outlives it, whatever way the run ends (children.ts).
import '../children';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Upload } from 'tus-js-client';
import { fakeGameDefinition } from '../../apps/daemon/test/helpers/test-daemon';
import { startHearth } from '../../e2e/deploy/helpers/hearth-start';

/** The panel, an administrator's session and one server on the local node. */
interface FilesBenchSetup {
  panelUrl: string;
  admin: { token: string };
  serverId: string;
  serverRoot: string;
  close(): Promise<void>;
}

/**
 * `hearth start` in its own process, as one machine runs it (panel + local node over loopback; the bench files
 * setup's remote node now needs TLS, which would measure the node link's encryption as well).
 */
async function uploadBenchSetup(dir: string): Promise<FilesBenchSetup> {
  const hearth = await startHearth(dir);
  const panelUrl = `http://127.0.0.1:${hearth.port}`;
  const token = new URL(hearth.setupUrl).searchParams.get('token');
  const admin = { username: 'bench', email: 'bench@example.com', password: 'bench-password-1', token };
  const post = async (path: string, body: unknown, session?: string) => {
    const res = await fetch(`${panelUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(session ? { authorization: `Bearer ${session}` } : {}),
      },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, string>;
  };
  const session = (await post('/auth/setup', admin)).session ?? '';
  const definition = { ...fakeGameDefinition(), name: 'bench upload', node: 'local', users: [] };
  const serverId = (await post('/api/servers', definition, session)).id ?? '';
  return {
    panelUrl,
    admin: { token: session },
    serverId,
    serverRoot: join(hearth.dataDir, 'servers', serverId),
    close: () => hearth.stop(),
  };
}

const QUICK = process.env.HEARTH_BENCH_QUICK === '1';
const MIB = 1024 * 1024;
const SIZE = (QUICK ? 64 : 2048) * MIB;
const CHUNK = 50 * MIB;
const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? (QUICK ? 1 : 2));

const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);

async function makeSource(path: string): Promise<void> {
  const block = randomBytes(MIB);
  const file = await open(path, 'w');
  try {
    for (let index = 0; index * MIB < SIZE; index += 1) {
      block.writeUInt32BE(index, 0);
      await file.write(block);
    }
  } finally {
    await file.close();
  }
}

/** One multipart request streamed from the file (no buffering on either side). */
function multipart(s: FilesBenchSetup, source: string, name: string): Promise<void> {
  const boundary = `hearth-bench-${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* body() {
    yield head;
    yield* createReadStream(source, { highWaterMark: MIB });
    yield tail;
  }
  return new Promise((resolve, reject) => {
    const url = new URL(`${s.panelUrl}/proxy/daemon/server/${s.serverId}/file/${name}`);
    const req = request(url, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${s.admin.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + SIZE + tail.length,
      },
    });
    req.once('response', (res) => {
      res.resume();
      res.once('end', () =>
        res.statusCode === 204 ? resolve() : reject(new Error(`PUT ${res.statusCode}`)),
      );
    });
    req.once('error', reject);
    pipeline(Readable.from(body()), req).catch(reject);
  });
}

const endpointOf = (s: FilesBenchSetup) => `${s.panelUrl}/proxy/daemon/server/${s.serverId}/upload`;

function tusJsClient(s: FilesBenchSetup, source: string, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const upload = new Upload(createReadStream(source), {
      endpoint: endpointOf(s),
      chunkSize: CHUNK,
      metadata: { path: name },
      headers: { authorization: `Bearer ${s.admin.token}` },
      storeFingerprintForResuming: false,
      onSuccess: () => resolve(),
      onError: reject,
    });
    upload.start();
  });
}

async function tusLean(s: FilesBenchSetup, source: string, name: string): Promise<void> {
  const tus = { authorization: `Bearer ${s.admin.token}`, 'tus-resumable': '1.0.0' };
  const created = await fetch(endpointOf(s), {
    method: 'POST',
    headers: {
      ...tus,
      'upload-length': String(SIZE),
      'upload-metadata': `path ${Buffer.from(name).toString('base64')}`,
    },
  });
  if (created.status !== 201) throw new Error(`POST ${created.status}`);
  const url = new URL(created.headers.get('location') ?? '', endpointOf(s)).href;
  for (let offset = 0; offset < SIZE; offset += CHUNK) {
    const end = Math.min(SIZE, offset + CHUNK);
    const res = await fetch(url, {
      method: 'PATCH',
      headers: {
        ...tus,
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(end - offset),
      },
      body: Readable.toWeb(createReadStream(source, { start: offset, end: end - 1, highWaterMark: MIB })),
      duplex: 'half',
    });
    if (res.status !== 204) throw new Error(`PATCH ${res.status} ${await res.text()}`);
  }
}

export async function runUploadBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-upload-'));
  const source = join(dir, 'source.bin');
  await makeSource(source);
  const s = await uploadBenchSetup(dir);
  const ways: Array<[string, (s: FilesBenchSetup, source: string, name: string) => Promise<void>]> = [
    ['multipart PUT (one request)', multipart],
    ['tus, tus-js-client, 50 MiB chunks', tusJsClient],
    ['tus, lean client, 50 MiB chunks', tusLean],
  ];
  const best = new Map<string, number>();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, send] of ways) {
        const name = `bench-${round}.bin`;
        const start = performance.now();
        await send(s, source, name);
        const ms = performance.now() - start;
        const target = join(s.serverRoot, name);
        if (statSync(target).size !== SIZE) throw new Error(`${label}: wrong size on the node`);
        rmSync(target);
        best.set(label, Math.max(best.get(label) ?? 0, mbps(SIZE, ms)));
      }
    }
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const plain = best.get(ways[0]?.[0] ?? '') ?? NaN;
  console.log(`upload of ${SIZE / MIB} MiB through the panel proxy, best of ${ROUNDS}:`);
  for (const [label, rate] of best) {
    console.log(
      `  ${label.padEnd(36)} ${rate.toFixed(0).padStart(5)} MB/s  (${((rate / plain) * 100).toFixed(0)} %)`,
    );
  }
}

if (process.argv[1]?.endsWith('bench/upload/run.ts')) await runUploadBench();
