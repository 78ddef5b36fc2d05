/**
 * A 2 GiB resumable (tus) upload through Debian's nginx limited to 100 MB per request (`client_max_body_size
 * 100m`, what Cloudflare allows), in front of `hearth start`: a multipart upload of 150 MiB is refused by that
 * limit, while tus-js-client in a child process sends 50 MiB chunks; the client is killed mid-way (SIGKILL: no
 * goodbye), a new process finds the unfinished upload in its URL storage and resumes from the node's offset,
 * and the file on the node has the source's sha256 (docs/files.md § Resumable uploads).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGameDefinition } from '../../apps/daemon/test/helpers/test-daemon';
import { waitFor } from '../../apps/daemon/test/helpers/poll';
import { freePort } from '../helpers/net';
import { startHearth, type HearthStart } from './helpers/hearth-start';
import { httpsCall, streamedUpload, type Call, type ClientOptions } from './helpers/https-client';
import { nginxInstalled, selfSignedCertificate, startNginx, type RunningNginx } from './helpers/nginx';

const MIB = 1024 ** 2;
const SIZE = 2 * 1024 * MIB;
const CHUNK = 50 * MIB;
const CLIENT = join(import.meta.dirname, 'helpers', 'tus-client.mjs');

function nginxAvailable(): boolean {
  if (nginxInstalled()) return true;
  if (process.env.CI === 'true') throw new Error('CI needs Debian nginx (apt-get install nginx)');
  console.warn('skipping the nginx tus suite: /usr/sbin/nginx is missing (apt-get install nginx)');
  return false;
}

/** A pseudo-random file of `size` bytes (one random MiB, each copy stamped with its index); its sha256. */
async function makeSource(path: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  const block = randomBytes(MIB);
  const file = await open(path, 'w');
  try {
    for (let index = 0; index * MIB < size; index += 1) {
      block.writeUInt32BE(index, 0);
      const part = block.subarray(0, Math.min(MIB, size - index * MIB));
      hash.update(part);
      await file.write(part);
    }
  } finally {
    await file.close();
  }
  return hash.digest('hex');
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

interface Client {
  child: ChildProcess;
  output: () => string;
  accepted: () => number[];
  exited: Promise<number | null>;
}

describe.runIf(nginxAvailable())('a 2 GiB tus upload through nginx limited to 100 MB per request', () => {
  let dir: string;
  let hearth: HearthStart;
  let nginx: RunningNginx;
  let client: ClientOptions;
  let cert: string;
  let session: string;
  let serverId: string;
  let source: string;
  let sourceSha: string;
  const https = (call: Call) => httpsCall(client, call);
  const bearer = () => ({ authorization: `Bearer ${session}` });

  function runClient(storage: string): Client {
    const endpoint = `https://localhost:${client.port}/proxy/daemon/server/${serverId}/upload`;
    const args = [CLIENT, endpoint, source, 'uploads/big.bin', session, storage, String(CHUNK)];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: cert },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const accepted = () => [...out.matchAll(/^accepted (\d+)$/gm)].map((m) => Number(m[1]));
    return { child, output: () => out, accepted, exited };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hearth-nginx-tus-'));
    source = join(dir, 'source.bin');
    sourceSha = await makeSource(source, SIZE);
    hearth = await startHearth(dir, { trustProxy: true });
    ({ cert } = selfSignedCertificate(dir));
    const key = join(dir, 'key.pem');
    const httpsPort = await freePort();
    const limit = (site: string) => {
      const limited = site.replace(/client_max_body_size\s+\S+;/, 'client_max_body_size 100m;');
      if (limited === site) throw new Error('the documented site has no client_max_body_size');
      return limited;
    };
    nginx = await startNginx(dir, {
      ...{ httpsPort, httpPort: await freePort(), panelPort: hearth.port, cert, key },
      alter: limit,
    });
    client = { port: httpsPort, ca: readFileSync(cert, 'utf8') };
    const token = new URL(hearth.setupUrl).searchParams.get('token');
    const admin = { username: 'admin', email: 'admin@example.com', password: 'admin-password-1' };
    const setup = await https({ method: 'POST', path: '/auth/setup', body: { ...admin, token } });
    expect(setup.status, setup.text).toBe(200);
    session = (JSON.parse(setup.text) as { session: string }).session;
    const body = { ...fakeGameDefinition(), name: 'tus-behind-nginx', node: 'local', users: [] };
    const created = await https({ method: 'POST', path: '/api/servers', headers: bearer(), body });
    expect(created.status, created.text).toBe(200);
    serverId = (JSON.parse(created.text) as { id: string }).id;
  }, 300_000);
  afterAll(async () => {
    await nginx?.stop();
    await hearth?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a 150 MiB multipart upload at the proxy (the limit is real)', async () => {
    const body = streamedUpload(150 * MIB, 'one-request.bin');
    const answer = await https({
      method: 'PUT',
      path: `/proxy/daemon/server/${serverId}/file/one-request.bin`,
      headers: { ...bearer(), 'content-type': body.contentType, 'content-length': body.length },
      body: body.body,
    }).catch((err: unknown) => ({ status: 0, text: String(err) }));
    // nginx answers 413 from the Content-Length; a client still sending may see the reset instead.
    expect([413, 0], answer.text).toContain(answer.status);
    expect(() => statSync(join(hearth.dataDir, 'servers', serverId, 'one-request.bin'))).toThrow();
  });

  it(
    'survives the client killed mid-way: a new client resumes from the node’s offset; the sha256 matches',
    { timeout: 900_000 },
    async () => {
      const storage = join(dir, 'tus-urls.json');
      const first = runClient(storage);
      // Past 40 %, the first client dies without a word, most likely in the middle of a chunk.
      await waitFor(
        () => (first.accepted().at(-1) ?? 0) >= 0.4 * SIZE || first.child.exitCode !== null,
        `the first client to pass 40 % (${first.output()})`,
        { timeoutMs: 600_000, intervalMs: 100 },
      );
      expect(first.child.exitCode, first.output()).toBeNull();
      first.child.kill('SIGKILL');
      await first.exited;
      const reached = first.accepted().at(-1) ?? 0;

      const second = runClient(storage);
      expect(await second.exited, second.output()).toBe(0);
      expect(second.output()).toMatch(/^resuming 1$/m);
      // It went on from where the node was, not from the start: its first chunk ended past the first client's.
      expect(second.accepted()[0]).toBeGreaterThan(reached);
      expect(second.accepted().at(-1)).toBe(SIZE);

      const file = join(hearth.dataDir, 'servers', serverId, 'uploads', 'big.bin');
      expect(statSync(file).size).toBe(SIZE);
      expect(await sha256OfFile(file)).toBe(sourceSha);
      // Nothing is left of the upload beside the server folder.
      expect(readdirSync(join(hearth.dataDir, 'servers', '.uploads', serverId))).toEqual([]);
    },
  );
});
