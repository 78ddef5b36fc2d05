/**
 * The escape suite: a table of hostile paths × every file operation (move, copy, chmod and search included)
 * × HTTP (through the panel proxy), the socket and SFTP — plus rename onto a symlink and a folder swapped for a symlink while
 * operations run. Every case is refused or stays inside the root; the canary outside is never read (its
 * secret never appears in an answer), changed or deleted, and nothing new appears outside.
 */
import { mkdir, readdir, readFile, rename, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import ssh2, { type SFTPWrapper } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonSocket } from './helpers/daemon-direct';
import { escapePaths } from './helpers/escape-cases';
import { filesFixture, type FilesFixture } from './helpers/files-fixture';

const SECRET = 'CANARY-SECRET-7f3a';
let f: FilesFixture;
let outside: string;
let canary: string;
let before: string[];
let cases = 0;

async function outsideState(): Promise<string[]> {
  const names = await readdir(outside);
  const c = await stat(canary);
  const o = await stat(outside);
  return [...names.sort(), `${c.size}:${c.mtimeMs}:${c.mode}:${o.mode}`, await readFile(canary, 'utf8')];
}

async function intact(label: string, answer: string): Promise<void> {
  cases += 1;
  expect(answer, label).not.toContain(SECRET);
  expect(await outsideState(), label).toEqual(before);
}

/**
 * Answers that may succeed because they stay inside: a `%…` path sent percent-encoded is a literal name in
 * the root (decoded once, never twice), and a link itself may be deleted (the link, not its target) or be
 * an archive's source (skipped) or destination (a new name is chosen beside it).
 */
function containedOk(label: string, path: string): boolean {
  if (path.includes('%') && !label.includes('raw')) return true;
  if (path.includes('%25')) return true;
  const isLink = /^link-[a-z]+\/?$/.test(path);
  return (
    isLink && ['DELETE', 'archive dest', 'archive src', 'move from', 'move onto', 'copy onto'].includes(label)
  );
}

const enc = (p: string) => p.split('/').map(encodeURIComponent).join('/');

async function http(method: string, path: string, body?: string | FormData, type?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${f.admin.token}` };
  if (type) headers['content-type'] = type;
  const res = await fetch(`${f.panelUrl}/proxy/daemon/server/${f.serverId}${path}`, {
    method,
    headers,
    body,
  });
  return { status: res.status, text: await res.text() };
}

const json = (path: string, body: unknown) => http('POST', path, JSON.stringify(body), 'application/json');

function form(): FormData {
  const data = new FormData();
  data.append('file', new Blob(['pwned']), 'x.txt');
  return data;
}

/** Puts the links and `sub/a.txt` back: contained operations may legitimately delete or replace them. */
async function restore(): Promise<void> {
  for (const [name, target] of [
    ['link-etc', '/etc'],
    ['link-out', outside],
    ['link-file', canary],
  ] as const) {
    await rm(join(f.serverRoot, name), { recursive: true, force: true });
    await symlink(target, join(f.serverRoot, name));
  }
  await mkdir(join(f.serverRoot, 'sub'), { recursive: true });
  await writeFile(join(f.serverRoot, 'sub', 'a.txt'), 'inside');
}

beforeAll(async () => {
  f = await filesFixture();
  outside = join(dirname(f.serverRoot), 'outside');
  canary = join(dirname(f.serverRoot), 'canary.txt');
  await mkdir(join(f.serverRoot, 'sub'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(canary, SECRET);
  await writeFile(join(outside, 'canary.txt'), SECRET);
  await restore();
  before = await outsideState();
});

afterAll(async () => {
  await f?.close();
  console.info(`[escape suite] ${cases} cases checked`);
});

describe('escape suite', () => {
  const paths = () => escapePaths({ root: f.serverRoot, outside, canary });

  it('HTTP through the panel proxy: read, upload, mkdir, delete, archive, extract, move, copy, chmod, search', async () => {
    for (const p of paths()) {
      const url = `/file/${enc(p)}`;
      const raw = `/file/${p.replace(/\0/g, '%00')}`;
      for (const [label, run] of [
        ['GET', () => http('GET', url)],
        ['GET raw', () => http('GET', raw)],
        ['PUT', () => http('PUT', url, form())],
        ['PUT raw', () => http('PUT', raw, form())],
        ['mkdir', () => http('PUT', `${url}?folder=true`)],
        ['DELETE', () => http('DELETE', url)],
        [
          'archive dest',
          () => http('POST', `/archive/${enc(p)}`, JSON.stringify(['sub']), 'application/json'),
        ],
        ['archive src', () => http('POST', '/archive/out.zip', JSON.stringify([p]), 'application/json')],
        ['extract dest', () => http('GET', `/extract/sub/a.zip?destination=${encodeURIComponent(p)}`)],
        ['move from', () => json('/move', { from: p, to: 'sub/stolen.txt' })],
        ['move onto', () => json('/move', { from: 'sub/a.txt', to: p, overwrite: true })],
        ['copy from', () => json('/copy', { from: p, to: 'sub/stolen.txt' })],
        ['copy onto', () => json('/copy', { from: 'sub/a.txt', to: p, overwrite: true })],
        ['chmod', () => json('/chmod', { path: p, mode: 0o777 })],
        ['search', () => http('GET', `/search?q=canary&path=${encodeURIComponent(p)}`)],
      ] as const) {
        const res = await run();
        if (!containedOk(label, p))
          expect(res.status, `HTTP ${label} ${JSON.stringify(p)}`).toBeGreaterThanOrEqual(400);
        await intact(`HTTP ${label} ${JSON.stringify(p)} → ${res.status}`, res.text);
        await restore();
      }
    }
  });

  it('socket file messages: get, create, delete', async () => {
    const token = await f.t.services.link.token(f.nodeId, {
      sub: f.admin.email,
      server: f.serverId,
      perms: ['viewServerFiles', 'putServerFiles'],
      admin: false,
    });
    // Straight to the daemon over the node's pinned HTTPS link: the daemon's own sandbox is under test.
    const ws = await daemonSocket(f.t, f.nodeId, f.serverId, token);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const ask = (message: unknown) =>
      new Promise<string>((resolve) => {
        const onMessage = (raw: Buffer) => {
          const text = raw.toString();
          if (/"type":"(file-list|error)"/.test(text)) {
            ws.off('message', onMessage);
            resolve(text);
          }
        };
        ws.on('message', onMessage);
        ws.send(JSON.stringify(message));
      });
    for (const p of paths()) {
      for (const action of ['get', 'create', 'delete']) {
        const answer = await ask({ type: 'file', action, path: p });
        const parsed = JSON.parse(answer) as { data: { error?: unknown; path?: string } };
        const refused = parsed.data.error !== undefined;
        // A name that is literal inside the root (e.g. `%2e%2e…`) may succeed; it must then be inside.
        if (!refused) expect(containedOk(action === 'delete' ? 'DELETE' : action, p), answer).toBe(true);
        await intact(`socket ${action} ${JSON.stringify(p)}`, answer);
        await restore();
      }
    }
    ws.close();
  });

  it('SFTP: stat, read, write, mkdir, rmdir, remove, rename from and onto, setstat, readdir', async () => {
    const sftp = await sftpSession(f, `${f.admin.email}#${f.serverId}`, f.admin.password);
    const call = (fn: (cb: (err: unknown, v?: unknown) => void) => void) =>
      new Promise<string>((resolve) =>
        fn((err, v) => resolve(err ? `ERR ${(err as Error).message}` : JSON.stringify(v ?? 'ok'))),
      );
    for (const p of paths()) {
      const ops: Array<[string, (cb: (err: unknown, v?: unknown) => void) => void]> = [
        ['stat', (cb) => sftp.stat(p, cb)],
        ['lstat', (cb) => sftp.lstat(p, cb)],
        ['read', (cb) => sftp.readFile(p, (err, data) => cb(err, data?.toString()))],
        ['write', (cb) => sftp.writeFile(p, 'pwned', (err) => cb(err))],
        ['append', (cb) => sftp.appendFile(p, 'pwned', (err) => cb(err))],
        ['mkdir', (cb) => sftp.mkdir(p, (err) => cb(err))],
        ['rmdir', (cb) => sftp.rmdir(p, (err) => cb(err))],
        ['remove', (cb) => sftp.unlink(p, (err) => cb(err))],
        ['rename from', (cb) => sftp.rename(p, 'sub/stolen.txt', (err) => cb(err))],
        ['rename onto', (cb) => sftp.rename('sub/a.txt', p, (err) => cb(err))],
        ['setstat', (cb) => sftp.setstat(p, { mode: 0o777 }, (err) => cb(err))],
        [
          'readdir',
          (cb) =>
            sftp.readdir(p, (err, list) =>
              cb(
                err,
                list?.map((e) => e.filename),
              ),
            ),
        ],
      ];
      for (const [label, op] of ops) {
        await intact(`SFTP ${label} ${JSON.stringify(p)}`, await call(op));
        await restore();
      }
    }
  });

  it('a folder swapped for a symlink between check and use never leads out', async () => {
    const race = join(f.serverRoot, 'race');
    const real = join(f.serverRoot, 'race-real');
    await mkdir(real, { recursive: true });
    await writeFile(join(real, 'canary.txt'), 'decoy');
    let stop = false;
    const swapper = (async () => {
      while (!stop) {
        await rename(real, race).catch(() => undefined);
        await new Promise((r) => setImmediate(r));
        await rename(race, real).catch(() => undefined);
        await symlink(outside, race).catch(() => undefined);
        await new Promise((r) => setImmediate(r));
        await unlink(race).catch(() => undefined);
      }
    })();
    const sftp = await sftpSession(f, `${f.admin.email}#${f.serverId}`, f.admin.password);
    for (let i = 0; i < 60; i += 1) {
      const answers = await Promise.all([
        http('GET', '/file/race/canary.txt'),
        http('PUT', `/file/race/new-${i}.txt`, form()),
        http('DELETE', '/file/race/canary.txt'),
        json('/copy', { from: 'race/canary.txt', to: `copied-${i}.txt` }),
        json('/copy', { from: 'race', to: `copied-dir-${i}` }),
        json('/chmod', { path: 'race/canary.txt', mode: 0o777 }),
        http('GET', '/search?q=canary&path=race'),
        new Promise<string>((resolve) =>
          sftp.readFile('race/canary.txt', (err, d) => resolve(err ? 'ERR' : d.toString())),
        ),
        new Promise<string>((resolve) =>
          sftp.writeFile(`race/s-${i}.txt`, 'x', (err) => resolve(String(err))),
        ),
      ]);
      await intact(`race ${i}`, JSON.stringify(answers));
      await writeFile(join(real, 'canary.txt'), 'decoy').catch(() => undefined);
    }
    stop = true;
    await swapper;
    // What a copy took during the race is the decoy inside, never the canary outside.
    for (const name of await readdir(f.serverRoot)) {
      if (!name.startsWith('copied-')) continue;
      const target = join(f.serverRoot, name);
      const files = (await stat(target)).isDirectory()
        ? (await readdir(target)).map((n) => join(target, n))
        : [target];
      for (const file of files) expect(await readFile(file, 'utf8'), file).not.toContain(SECRET);
    }
    await rm(race, { force: true, recursive: false }).catch(() => undefined);
  });

  it('checked at least 200 cases', () => {
    expect(cases).toBeGreaterThanOrEqual(200);
  });
});

function sftpSession(fx: FilesFixture, username: string, password: string): Promise<SFTPWrapper> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client
      .on('ready', () => client.sftp((err, sftp) => (err ? reject(err) : resolve(sftp))))
      .on('error', reject)
      .connect({ host: '127.0.0.1', port: fx.sftpPort, username, password });
  });
}
