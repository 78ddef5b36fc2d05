/**
 * Moving a server between two real daemons (docs/daemon.md § Transfer), the test playing the panel: A's export
 * streamed into B's import, committed with A's trailer checksum. The copy must equal the original — nested and
 * empty folders, a symlink inside the folder, modes, a large file — and belong to B's server uid; a wrong
 * checksum, an abort, a busy server and an existing id leave nothing behind.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, link, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSFER_BYTES_HEADER, TRANSFER_FILES_HEADER } from '@hearth/contract';
import { waitFor } from './helpers/poll';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';
import {
  abort,
  commit,
  describeTree,
  errorCode,
  exportFrom,
  openExport,
  panelToken,
  prepare,
  readExport,
  sendData,
} from './transfer-wire';

const LARGE = 24 * 1024 * 1024;

describe('server transfer between two daemons', () => {
  let a: TestDaemon;
  let b: TestDaemon;
  const definition = fakeGameDefinition('standard', { autorecover: false });
  const rootOn = (d: TestDaemon, id: string) => join(d.config.serversDir ?? '', id);
  const stagingOn = (d: TestDaemon, id: string) => join(d.config.serversDir ?? '', '.transfers', id);

  async function createOn(d: TestDaemon, id: string): Promise<void> {
    const res = await d.request('PUT', `/daemon/server/${id}`, { token: await d.admin(), body: definition });
    expect(res.status).toBe(200);
  }

  async function fillTree(root: string): Promise<void> {
    await mkdir(join(root, 'world/region/deep'), { recursive: true });
    await mkdir(join(root, 'empty-folder'));
    await writeFile(join(root, 'world/region/deep/r.0.0.mca'), randomBytes(70_000));
    await writeFile(join(root, 'server.properties'), 'motd=moved\n');
    await writeFile(join(root, 'start.sh'), '#!/bin/sh\necho hi\n');
    await chmod(join(root, 'start.sh'), 0o750);
    await writeFile(join(root, 'secret.txt'), 'only me');
    await chmod(join(root, 'secret.txt'), 0o600);
    await chmod(join(root, 'world/region'), 0o750);
    await writeFile(join(root, 'large.bin'), randomBytes(LARGE));
    await symlink('world/region/deep/r.0.0.mca', join(root, 'latest-region'));
    await link(join(root, 'server.properties'), join(root, 'server.properties.bak'));
  }

  beforeAll(async () => {
    [a, b] = await Promise.all([startTestDaemon(), startTestDaemon()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  }, 120_000);

  it(
    'moves a tree of files: equal on B, owned by the server, registered stopped and installed',
    { timeout: 180_000 },
    async () => {
      const id = 'mover';
      await createOn(a, id);
      await fillTree(rootOn(a, id));

      const exported = await exportFrom(a, id);
      expect(exported.status).toBe(200);
      expect(exported.trailer).toBe(exported.sha256);
      expect(Number(exported.headers[TRANSFER_BYTES_HEADER])).toBeGreaterThan(LARGE);
      expect(Number(exported.headers[TRANSFER_FILES_HEADER])).toBe(6);

      const prepared = await prepare(b, id, definition, Number(exported.headers[TRANSFER_BYTES_HEADER]));
      expect(prepared.status).toBe(204);
      expect(existsSync(stagingOn(b, id))).toBe(true);
      const received = await sendData(b, id, exported.body);
      expect(received.status).toBe(200);
      expect(received.json.sha256).toBe(exported.trailer);
      expect(received.json.files).toBe(6);
      const committed = await commit(b, id, exported.trailer ?? '');
      expect(committed.status).toBe(200);
      expect(await committed.json()).toEqual({});
      expect(existsSync(stagingOn(b, id))).toBe(false);

      const status = await b.request('GET', `/daemon/server/${id}/status`, { token: await b.admin(id) });
      expect(await status.json()).toMatchObject({ running: false, installed: true });

      const original = await describeTree(rootOn(a, id));
      const copy = await describeTree(rootOn(b, id));
      expect([...copy.keys()]).toEqual([...original.keys()]);
      for (const [path, entry] of original) {
        const moved = copy.get(path);
        expect(moved?.kind, path).toBe(entry.kind);
        expect(moved?.content, path).toBe(entry.content);
        if (entry.kind !== 'link') expect(moved?.mode, path).toBe(entry.mode);
      }
      // Owned by B's uid for the server (a root daemon isolates each server), not by whoever owned them on A.
      const stored = JSON.parse(await readFile(`${rootOn(b, id)}.json`, 'utf8')) as {
        runAs: { uid: number } | null;
      };
      const uid = stored.runAs?.uid ?? process.getuid?.();
      for (const [path, entry] of copy) expect(entry.uid, path).toBe(uid);

      // The moved server runs on B.
      const started = await b.request('POST', `/daemon/server/${id}/start?wait=true`, {
        token: await b.admin(id),
      });
      expect(started.status).toBeLessThan(300);
      await waitFor(
        async () => {
          const res = await b.request('GET', `/daemon/server/${id}/status`, { token: await b.admin(id) });
          return ((await res.json()) as { running: boolean }).running;
        },
        'the moved server running on B',
        { timeoutMs: 60_000 },
      );
      await b.request('POST', `/daemon/server/${id}/kill?wait=true`, { token: await b.admin(id) });
    },
  );

  it(
    'carries the node’s own marks: a definition no administrator wrote stays one, tasks keep their owners',
    { timeout: 180_000 },
    async () => {
      const id = 'carried';
      // Created by a user allowed to create servers (a token naming only this id): not administrator-written.
      // Its folder stays empty: the export is only the end-of-archive blocks, which B must take as a server.
      const created = await a.request('PUT', `/daemon/server/${id}`, {
        token: await a.user(id, []),
        body: definition,
      });
      expect(created.status).toBe(200);
      const task = await a.request('POST', `/daemon/server/${id}/tasks`, {
        token: await a.token({ admin: true, server: id, sub: 'owner-7' }),
        body: { name: 'nightly', cronSchedule: '@daily', operations: [] },
      });
      expect(task.status).toBe(200);
      const taskId = ((await task.json()) as { id: string }).id;

      const carried = await a.request('GET', `/daemon/transfer/${id}/carry`, {
        token: await panelToken(a),
      });
      expect(carried.status, await carried.clone().text()).toBe(200);
      const carry = (await carried.json()) as { adminEdited: boolean; tasks: Record<string, unknown> };
      expect(carry.adminEdited).toBe(false);
      expect(carry.tasks[taskId]).toMatchObject({ name: 'nightly', owner: 'owner-7' });

      const exported = await exportFrom(a, id);
      const bytes = Number(exported.headers[TRANSFER_BYTES_HEADER]);
      const prepared = await b.request('POST', `/daemon/transfer/${id}/prepare`, {
        token: await panelToken(b),
        body: { definition, bytes, carry },
      });
      expect(prepared.status).toBe(204);
      const received = await sendData(b, id, exported.body);
      expect(received.status, JSON.stringify(received.json)).toBe(200);
      const committed = await commit(b, id, exported.trailer ?? '');
      expect(committed.status, await committed.clone().text()).toBe(200);

      const stored = JSON.parse(await readFile(`${rootOn(b, id)}.json`, 'utf8')) as { adminEdited: boolean };
      expect(stored.adminEdited).toBe(false);
      const tasks = JSON.parse(await readFile(`${rootOn(b, id)}.tasks.json`, 'utf8')) as {
        tasks: Record<string, { owner: string | null; name: string }>;
      };
      expect(tasks.tasks[taskId]).toMatchObject({ name: 'nightly', owner: 'owner-7' });
      const listed = await b.request('GET', `/daemon/server/${id}/tasks`, { token: await b.admin(id) });
      expect(Object.keys(((await listed.json()) as { tasks: object }).tasks)).toEqual([taskId]);
    },
  );

  it('refuses a commit with another checksum and leaves nothing on B', { timeout: 120_000 }, async () => {
    const id = 'badsum';
    await createOn(a, id);
    await writeFile(join(rootOn(a, id), 'a.txt'), 'hello');
    const exported = await exportFrom(a, id);
    expect((await prepare(b, id, definition, 5)).status).toBe(204);
    expect((await sendData(b, id, exported.body)).status).toBe(200);
    const wrong = await commit(b, id, '0'.repeat(64));
    expect(wrong.status).toBe(502);
    expect(await errorCode(wrong)).toBe('ErrTransferChecksum');
    expect(existsSync(stagingOn(b, id))).toBe(false);
    expect(existsSync(rootOn(b, id))).toBe(false);
    const status = await b.request('GET', `/daemon/server/${id}/status`, { token: await b.admin(id) });
    expect(status.status).toBe(404);
    // The transfer is over: a second commit finds nothing.
    const again = await commit(b, id, exported.sha256);
    expect(again.status).toBe(404);
    expect(await errorCode(again)).toBe('ErrTransferNotFound');
  });

  it(
    'aborts: the staging folder goes, twice is fine, data without prepare is refused',
    { timeout: 120_000 },
    async () => {
      const id = 'aborted';
      await createOn(a, id);
      await writeFile(join(rootOn(a, id), 'a.txt'), 'hello');
      const exported = await exportFrom(a, id);
      expect((await prepare(b, id, definition, 5)).status).toBe(204);
      expect((await sendData(b, id, exported.body)).status).toBe(200);
      expect((await abort(b, id)).status).toBe(204);
      expect(existsSync(stagingOn(b, id))).toBe(false);
      expect((await abort(b, id)).status).toBe(204);
      const orphan = await sendData(b, id, exported.body);
      expect(orphan.status).toBe(404);
      expect(orphan.json.error?.code).toBe('ErrTransferNotFound');
      // A replaced leftover: a second prepare starts a fresh copy.
      expect((await prepare(b, id, definition, 5)).status).toBe(204);
      expect((await prepare(b, id, definition, 5)).status).toBe(204);
      expect((await abort(b, id)).status).toBe(204);
    },
  );

  it('refuses to export a running server', { timeout: 120_000 }, async () => {
    const id = 'running';
    await createOn(a, id);
    const token = await a.admin(id);
    expect((await a.request('POST', `/daemon/server/${id}/start?wait=true`, { token })).status).toBeLessThan(
      300,
    );
    const res = await openExport(a, id);
    const refused = await readExport(res);
    expect(refused.status).toBe(409);
    expect((JSON.parse(refused.body.toString()) as { error: { code: string } }).error.code).toBe(
      'ErrServerRunning',
    );
    await a.request('POST', `/daemon/server/${id}/kill?wait=true`, { token });
  });

  it(
    'refuses a start while the export streams, and allows it once the stream is gone',
    { timeout: 120_000 },
    async () => {
      const id = 'held';
      await createOn(a, id);
      await writeFile(join(rootOn(a, id), 'big.bin'), randomBytes(LARGE));
      const res = await openExport(a, id);
      expect(res.statusCode).toBe(200);
      res.pause(); // the stream stays open: the export holds the server
      const token = await a.admin(id);
      const start = await a.request('POST', `/daemon/server/${id}/start?wait=true`, { token });
      expect(start.status).toBe(409);
      expect(await errorCode(start)).toBe('ErrTransferInProgress');
      const second = await exportFrom(a, id);
      expect(second.status).toBe(409);
      res.destroy();
      const after = await waitFor(
        async () => {
          const again = await a.request('POST', `/daemon/server/${id}/start?wait=true`, { token });
          return again.status < 300 ? again : null;
        },
        'a start once the export is gone',
        { timeoutMs: 60_000 },
      );
      expect(after.status).toBeLessThan(300);
      await a.request('POST', `/daemon/server/${id}/kill?wait=true`, { token });
    },
  );

  it(
    'refuses to prepare an id that is already a server, or an invalid definition',
    { timeout: 60_000 },
    async () => {
      const id = 'taken';
      await createOn(b, id);
      const res = await prepare(b, id, definition, 1);
      expect(res.status).toBe(409);
      expect(await errorCode(res)).toBe('ErrServerAlreadyExists');
      expect(existsSync(stagingOn(b, id))).toBe(false);
      const bad = await prepare(b, 'fresh', { ...definition, environment: { type: 'nope' } }, 1);
      expect(bad.status).toBe(400);
      expect(await errorCode(bad)).toBe('ErrInvalidDefinition');
    },
  );

  it(
    'refuses every user token on every transfer route, an administrator’s included',
    { timeout: 60_000 },
    async () => {
      const id = 'mover';
      const routes: Array<[string, string]> = [
        ['GET', `/daemon/transfer/${id}/export`],
        ['GET', `/daemon/transfer/${id}/carry`],
        ['POST', `/daemon/transfer/${id}/prepare`],
        ['PUT', `/daemon/transfer/${id}/data`],
        ['POST', `/daemon/transfer/${id}/commit`],
        ['DELETE', `/daemon/transfer/${id}`],
      ];
      const tokens = [
        await a.admin(),
        await a.admin(id),
        await a.user(id, ['editServerAdmin' as never]),
        await a.token({ admin: true, server: id, sub: 'panel' }),
      ];
      for (const [method, path] of routes) {
        const none = await a.request(method, path, { body: method === 'GET' ? undefined : {} });
        expect(none.status, `${method} ${path} without a token`).toBe(401);
        for (const token of tokens) {
          const res = await a.request(method, path, { token, body: method === 'GET' ? undefined : {} });
          expect([401, 403], `${method} ${path}`).toContain(res.status);
        }
      }
      // The panel's own token passes the guard (the server is stopped on A: its export streams).
      const ok = await a.request('GET', `/daemon/transfer/${id}/export`, {
        token: await panelToken(a),
      });
      expect(ok.status).toBe(200);
      await ok.arrayBuffer();
    },
  );
});
