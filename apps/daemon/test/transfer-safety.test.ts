/**
 * A transfer's import treats the stream as hostile (docs/daemon.md § Transfer): crafted archives — absolute
 * paths, `..`, a link then a file through it, hard links out, device nodes, setuid bits — never write outside
 * the staging folder; a stream cut mid-way and a full disk (a real 8 MiB tmpfs) leave no staging folder.
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, rm, statfs } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './helpers/poll';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';
import {
  abort,
  commit,
  craftTar,
  errorCode,
  panelToken,
  prepare,
  sendData,
  type CraftedEntry,
} from './transfer-wire';

const definition = fakeGameDefinition('standard', { autorecover: false });
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('transfer import: hostile archives', () => {
  let d: TestDaemon;
  let outside: string;
  let n = 0;
  const serversDir = () => d.config.serversDir ?? '';
  const stagingOf = (id: string) => join(serversDir(), '.transfers', id);

  beforeAll(async () => {
    d = await startTestDaemon();
    outside = await mkdtemp(join(tmpdir(), 'hearth-outside-'));
  }, 120_000);
  afterAll(async () => {
    await d?.close();
    if (outside) await rm(outside, { recursive: true, force: true });
  });

  /** Prepares a fresh id and sends `entries`; the id and the answer. */
  async function send(entries: CraftedEntry[]) {
    const id = `hostile${++n}`;
    expect((await prepare(d, id, definition, 1024)).status).toBe(204);
    return { id, ...(await sendData(d, id, craftTar(entries))) };
  }

  /** Nothing of a refused archive anywhere: not outside, not beside the staging folder, no staging folder. */
  async function expectNothingLeft(id: string): Promise<void> {
    expect(await readdir(outside)).toEqual([]);
    expect(existsSync(stagingOf(id))).toBe(false);
    for (const stray of ['x', 'pwned', 'abs-evil']) {
      expect(existsSync(join(serversDir(), stray)), stray).toBe(false);
      expect(existsSync(join(serversDir(), '.transfers', stray)), stray).toBe(false);
    }
  }

  it.each<[string, () => CraftedEntry[]]>([
    ['an absolute path', () => [{ path: join(outside, 'abs-evil'), body: 'x' }]],
    ['a parent reference', () => [{ path: '../x', body: 'x' }]],
    ['a parent reference deeper down', () => [{ path: 'a/b/../../../x', body: 'x' }]],
    [
      'a file through a link the archive made',
      () => [
        { path: 'sub', type: 'Directory' },
        { path: 'in', type: 'SymbolicLink', linkpath: 'sub' },
        { path: 'in/pwned', body: 'x' },
      ],
    ],
    ['a hard link to an absolute path', () => [{ path: 'h', type: 'Link', linkpath: '/etc/passwd' }]],
    ['a hard link out by ..', () => [{ path: 'h', type: 'Link', linkpath: '../../../../etc/passwd' }]],
  ])(
    'refuses %s: 502 ErrTransferFailed, nothing written anywhere',
    { timeout: 60_000 },
    async (_name, entries) => {
      const { id, status, json } = await send(entries());
      expect(status).toBe(502);
      expect(json.error?.code).toBe('ErrTransferFailed');
      await expectNothingLeft(id);
    },
  );

  it(
    'skips links pointing out, devices and FIFOs; drops setuid bits; a link then a file makes a folder',
    { timeout: 60_000 },
    async () => {
      const entries: CraftedEntry[] = [
        { path: 'esc', type: 'SymbolicLink', linkpath: outside },
        { path: 'esc/pwned', body: 'stays inside' },
        { path: 'up', type: 'SymbolicLink', linkpath: '../../../../..' },
        { path: 'dev-null', type: 'CharacterDevice' },
        { path: 'fifo', type: 'FIFO' },
        { path: 'suid', body: '#!/bin/sh\n', mode: 0o4755 },
        { path: 'shared', type: 'Directory', mode: 0o3777 },
        { path: 'shared/ok', type: 'SymbolicLink', linkpath: '../suid' },
      ];
      const id = `hostile${++n}`;
      const tar = craftTar(entries);
      expect((await prepare(d, id, definition, 1024)).status).toBe(204);
      const received = await sendData(d, id, tar);
      expect(received.status).toBe(200);
      expect(received.json.sha256).toBe(sha(tar));
      expect((await commit(d, id, received.json.sha256)).status).toBe(200);
      const root = join(serversDir(), id);
      expect(await readdir(outside)).toEqual([]);
      expect((await lstat(join(root, 'esc'))).isDirectory()).toBe(true);
      expect(existsSync(join(root, 'esc/pwned'))).toBe(true);
      for (const gone of ['up', 'dev-null', 'fifo']) expect(existsSync(join(root, gone)), gone).toBe(false);
      expect((await lstat(join(root, 'suid'))).mode & 0o7777).toBe(0o755);
      expect((await lstat(join(root, 'shared'))).mode & 0o7777).toBe(0o777);
      expect((await lstat(join(root, 'shared/ok'))).isSymbolicLink()).toBe(true);
    },
  );

  it(
    'a stream cut mid-way removes the staging folder; the daemon goes on',
    { timeout: 120_000 },
    async () => {
      const id = `cut${++n}`;
      expect((await prepare(d, id, definition, 8 * 1024 * 1024)).status).toBe(204);
      const tar = craftTar([{ path: 'big.bin', body: randomBytes(8 * 1024 * 1024) }]);
      const token = await panelToken(d);
      await new Promise<void>((resolve) => {
        const req = httpRequest(`${d.url}/daemon/transfer/${id}/data`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-tar' },
        });
        req.on('error', () => resolve());
        req.write(tar.subarray(0, 3 * 1024 * 1024), () => setTimeout(() => req.destroy(), 200));
        req.on('close', () => resolve());
      });
      await waitFor(() => !existsSync(stagingOf(id)), 'the staging folder removed', { timeoutMs: 60_000 });
      expect((await d.request('GET', '/daemon')).status).toBe(200);
      const after = await sendData(d, id, tar);
      expect(after.status).toBe(404);
    },
  );
});

describe('transfer import: a full disk', () => {
  let d: TestDaemon | undefined;
  let mountPoint: string;
  let mounted = false;
  let reason = '';

  beforeAll(async () => {
    mountPoint = await mkdtemp(join(tmpdir(), 'hearth-small-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint], { stdio: 'pipe' });
      mounted = true;
    } catch (err) {
      reason = err instanceof Error ? err.message : String(err);
      if (process.env.CI === 'true') throw err;
      return;
    }
    await mkdir(join(mountPoint, 'servers'));
    d = await startTestDaemon({ serversDir: join(mountPoint, 'servers') });
  }, 120_000);
  afterAll(async () => {
    await d?.close();
    if (mounted) execFileSync('umount', [mountPoint]);
    await rm(mountPoint, { recursive: true, force: true });
  });

  it(
    'refuses to prepare more than fits, and answers 507 when the copy fills the disk',
    { timeout: 120_000 },
    async (ctx) => {
      if (!mounted || !d) {
        console.log(`skipped: cannot mount a small tmpfs (${reason})`);
        return ctx.skip();
      }
      const tooBig = await prepare(d, 'full1', definition, 64 * 1024 * 1024);
      expect(tooBig.status).toBe(507);
      const body = (await tooBig.json()) as {
        error: { code: string; metadata: { needed: number; node: string } };
      };
      expect(body.error.code).toBe('ErrTransferNoSpace');
      expect(body.error.metadata.node).toBe('test-node');
      expect(body.error.metadata.needed).toBeGreaterThan(64 * 1024 * 1024);

      const staging = join(d.config.serversDir ?? '', '.transfers', 'full2');
      const free = async () => {
        const fs = await statfs(mountPoint);
        return fs.bavail * fs.bsize;
      };
      const before = await free();
      // The sender claims 1 MiB and sends 20: the disk fills mid-stream.
      expect((await prepare(d, 'full2', definition, 1024 * 1024)).status).toBe(204);
      const tar = craftTar([
        { path: 'a.bin', body: randomBytes(4 * 1024 * 1024) },
        { path: 'b.bin', body: randomBytes(16 * 1024 * 1024) },
      ]);
      const received = await sendData(d, 'full2', tar);
      expect(received.status).toBe(507);
      expect(received.json.error?.code).toBe('ErrTransferNoSpace');
      expect(existsSync(staging)).toBe(false);
      expect(await free()).toBeGreaterThanOrEqual(before);
      expect((await abort(d, 'full2')).status).toBe(204);
      const status = await d.request('GET', '/daemon/server/full2/status', { token: await d.admin('full2') });
      expect(await errorCode(status)).toBe('ErrServerNotFound');
    },
  );
});
