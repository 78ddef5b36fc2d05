/**
 * A backup restored into a NEW server (docs/backups.md § Clone) through a real panel, a real daemon and real
 * restic: `POST /api/servers/{id}/backup/{backupId}/clone` is an administrator's; the new server is made by the
 * panel's server creation with the source's definition and holds the snapshot's files; a restore that fails after
 * the server was made removes it again from the panel and the node; an unknown snapshot creates nothing.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupCloned } from '@hearth/contract';
import type { ServersPage } from '@hearth/contract/servers';
import { call } from '../apps/panel/test/helpers/app';
import { taskNode, type TaskNode } from './helpers/task-node';

describe('a backup cloned into a new server', () => {
  let n: TaskNode;
  let backupId: string;

  beforeAll(async () => {
    n = await taskNode('sqlite');
    const root = join(n.serversDir, n.serverId);
    await mkdir(join(root, 'world'), { recursive: true });
    await writeFile(join(root, 'world', 'level.dat'), 'the level');
    await writeFile(join(root, 'server.properties'), 'motd=source');
    const created = await call(n.t, 'POST', `/proxy/daemon/server/${n.serverId}/backup`, {
      token: n.admin.token,
    });
    if (created.statusCode !== 200) throw new Error(`backup: ${created.statusCode} ${created.body}`);
    backupId = created.json<{ id: string }>().id;
  }, 180_000);
  afterAll(() => n?.close());

  const cloneUrl = (id: string) => `/api/servers/${n.serverId}/backup/${id}/clone`;
  const clone = (token: string, body: unknown, id = backupId) =>
    call(n.t, 'POST', cloneUrl(id), { token, body });
  const serverIds = async () =>
    (await call(n.t, 'GET', '/api/servers?page=1&limit=100', { token: n.admin.token }))
      .json<ServersPage>()
      .servers.map((s) => s.id);
  const codeOf = (res: { json: <T>() => T }) => res.json<{ error: { code: string } }>().error.code;
  const definitionOf = async (id: string) =>
    (await call(n.t, 'GET', `/proxy/daemon/server/${id}`, { token: n.admin.token })).json<
      Record<string, unknown>
    >();

  it('makes a new server with the source’s definition and restores the snapshot into it', async () => {
    await writeFile(join(n.serversDir, n.serverId, 'server.properties'), 'motd=changed since');
    const res = await clone(n.admin.token, { name: 'clone one' });
    expect(res.statusCode, res.body).toBe(200);
    const { server, operation } = res.json<BackupCloned>();
    expect(server).not.toBe(n.serverId);
    expect(operation).toBeTruthy();
    const detail = await call(n.t, 'GET', `/api/servers/${server}`, { token: n.admin.token });
    expect(detail.statusCode).toBe(200);
    expect(detail.json<{ server: { name: string; node: { id: string } } }>().server).toMatchObject({
      name: 'clone one',
      node: { id: n.nodeId },
    });
    const [source, copy] = await Promise.all([definitionOf(n.serverId), definitionOf(server)]);
    for (const key of ['type', 'environment', 'data', 'run', 'install'])
      expect(copy[key], key).toEqual(source[key]);
    const root = join(n.serversDir, server);
    expect(await readFile(join(root, 'world', 'level.dat'), 'utf8')).toBe('the level');
    expect(await readFile(join(root, 'server.properties'), 'utf8')).toBe('motd=source');
    // The source is untouched by a clone.
    expect(await readFile(join(n.serversDir, n.serverId, 'server.properties'), 'utf8')).toBe(
      'motd=changed since',
    );
  });

  it('restores only the chosen paths into the clone', async () => {
    const res = await clone(n.admin.token, { name: 'clone paths', paths: ['world'] });
    expect(res.statusCode, res.body).toBe(200);
    const root = join(n.serversDir, res.json<BackupCloned>().server);
    expect(await readFile(join(root, 'world', 'level.dat'), 'utf8')).toBe('the level');
    expect(existsSync(join(root, 'server.properties'))).toBe(false);
  });

  it('a restore that fails after the server was made removes that server from the panel and the node', async () => {
    const before = await serverIds();
    const res = await clone(n.admin.token, { name: 'clone broken', paths: ['no-such-folder'] });
    expect(res.statusCode, res.body).toBe(404);
    expect(codeOf(res)).toBe('ErrBackupPathNotFound');
    const after = await serverIds();
    expect(after.sort()).toEqual(before.sort());
    // Nothing of the removed server stays on the node: no folder, no definition, no staging folder.
    const left = (await readdir(n.serversDir)).filter(
      (f) => !before.includes(f.replace(/^\./, '').split(/[.-]/)[0] ?? ''),
    );
    expect(left).toEqual([]);
  });

  it('an unknown or another server’s snapshot creates nothing', async () => {
    const before = await serverIds();
    const unknown = await clone(n.admin.token, { name: 'clone unknown' }, 'deadbeefdeadbeef');
    expect(unknown.statusCode).toBe(404);
    expect(codeOf(unknown)).toBe('ErrBackupNotFound');
    const smuggled = await clone(n.admin.token, { name: 'clone path' }, '..%2F..%2Fx');
    expect(smuggled.statusCode).toBe(404);
    expect(await serverIds()).toEqual(before);
  });

  it('is an administrator’s: a user holding every backup flag is refused, and a bad name is refused', async () => {
    const holder = await n.user(
      {
        viewServerBackups: true,
        createServerBackups: true,
        restoreServerBackups: true,
        deleteServerBackups: true,
        downloadServerBackups: true,
      },
      { createServers: true },
    );
    const before = await serverIds();
    const refused = await clone(holder.token, { name: 'clone denied' });
    expect(refused.statusCode).toBe(403);
    expect(codeOf(refused)).toBe('ErrNoPermission');
    const badName = await clone(n.admin.token, { name: 'a/b' });
    expect(badName.statusCode).toBe(400);
    expect(await serverIds()).toEqual(before);
  });
});
