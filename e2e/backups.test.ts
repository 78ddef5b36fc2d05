/**
 * Backups through the whole system (docs/backups.md): a real panel, a real daemon started from its deployment
 * (panel URL set, so tasks ask their owner's access) and real restic on the node. Each backup flag is proven by a
 * grant and a denial through the panel's proxy; the trigger and who asked reach the snapshot; a download streams
 * through the panel; a task's `backup` step takes a snapshot marked `task` and needs createServerBackups to be
 * saved; the node's backup settings are an administrator's, and an unreachable destination is refused and not
 * kept.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { BackupList, BackupNodeStatus, Task, TaskListResponse } from '@hearth/contract';
import { call, createUser } from '../apps/panel/test/helpers/app';
import { waitFor } from '../apps/daemon/test/helpers/poll';
import { taskNode, type TaskNode } from './helpers/task-node';

interface Frame {
  type: string;
  data: Record<string, unknown>;
}

/** The panel's live socket of the server, as the browser opens it. */
function openSocket(url: string, id: string, token: string): Promise<{ ws: WebSocket; messages: Frame[] }> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/proxy/daemon/socket/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const messages: Frame[] = [];
  ws.on('message', (raw: Buffer) => messages.push(JSON.parse(raw.toString()) as Frame));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, messages }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

describe('backups through the panel', () => {
  let n: TaskNode;
  let proxy: string;

  beforeAll(async () => {
    n = await taskNode('sqlite');
    proxy = `/proxy/daemon/server/${n.serverId}`;
    await writeFile(join(n.serversDir, n.serverId, 'world.txt'), 'the world');
  }, 120_000);
  afterAll(() => n?.close());

  const as = (token: string, method: string, url: string, body?: unknown) =>
    call(n.t, method, url, { token, body });
  const socket = (token: string) => openSocket(n.panelUrl, n.serverId, token);
  const codeOf = (res: { json: <T>() => T }) => res.json<{ error: { code: string } }>().error.code;

  it('creates with createServerBackups (by the caller), lists with viewServerBackups; refuses the others', async () => {
    const creator = await n.user({ viewServerBackups: true, createServerBackups: true });
    const viewer = await n.user({ viewServerBackups: true });
    const stranger = await n.user({});
    const created = await as(creator.token, 'POST', `${proxy}/backup`);
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json<{ id: string }>();
    const list = (await as(viewer.token, 'GET', `${proxy}/backup`)).json<BackupList>();
    expect(list.backups[0]).toMatchObject({ id, trigger: 'manual', by: creator.id });
    const refused = await as(viewer.token, 'POST', `${proxy}/backup`);
    expect(refused.statusCode).toBe(403);
    const flagless = await as(stranger.token, 'GET', `${proxy}/backup`);
    expect(flagless.statusCode).toBe(403);
    // No access to the server at all: it does not exist for them.
    const outsider = await createUser(n.t);
    expect((await as(outsider.token, 'GET', `${proxy}/backup`)).statusCode).toBe(404);
  });

  it('download, restore, lock and delete each need their own flag', async () => {
    const { backups } = (await as(n.admin.token, 'GET', `${proxy}/backup`)).json<BackupList>();
    const id = backups[0]?.id ?? '';
    const viewer = await n.user({ viewServerBackups: true });
    const downloader = await n.user({ downloadServerBackups: true });
    const restorer = await n.user({ restoreServerBackups: true });
    const deleter = await n.user({ deleteServerBackups: true });
    const url = `${proxy}/backup/${id}`;
    expect((await as(viewer.token, 'GET', `${url}/download?format=zip`)).statusCode).toBe(403);
    const zip = await as(downloader.token, 'GET', `${url}/download?path=world.txt&format=zip`);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.rawPayload.toString('latin1')).toContain('world.txt');
    expect((await as(viewer.token, 'POST', `${url}/restore`, { paths: ['world.txt'] })).statusCode).toBe(403);
    await writeFile(join(n.serversDir, n.serverId, 'world.txt'), 'changed');
    const restored = await as(restorer.token, 'POST', `${url}/restore`, { paths: ['world.txt'] });
    expect(restored.statusCode, restored.body).toBe(200);
    const clone = await as(restorer.token, 'POST', `${url}/restore`, { intoServer: 'other' });
    expect(clone.statusCode).toBe(403);
    expect((await as(viewer.token, 'PUT', `${url}/lock`, { locked: true })).statusCode).toBe(403);
    expect((await as(deleter.token, 'PUT', `${url}/lock`, { locked: true })).statusCode).toBe(204);
    const locked = await as(deleter.token, 'DELETE', url);
    expect(locked.statusCode).toBe(409);
    expect(codeOf(locked)).toBe('ErrBackupLocked');
    expect((await as(deleter.token, 'PUT', `${url}/lock`, { locked: false })).statusCode).toBe(204);
    expect((await as(viewer.token, 'DELETE', url)).statusCode).toBe(403);
    expect((await as(deleter.token, 'DELETE', url)).statusCode).toBe(204);
    const gone = await as(viewer.token, 'GET', url);
    expect(gone.statusCode).toBe(404);
    expect(codeOf(gone)).toBe('ErrBackupNotFound');
  });

  it('a task’s backup step needs createServerBackups to be saved, and takes a snapshot marked task', async () => {
    const editorOnly = await n.user({ editServerData: true });
    const body = { name: 'Nightly', cronSchedule: null, operations: [{ type: 'backup' }] };
    const refused = await as(editorOnly.token, 'POST', `${proxy}/tasks`, body);
    expect(refused.statusCode).toBe(403);
    const owner = await n.user({ editServerData: true, createServerBackups: true, viewServerBackups: true });
    const saved = await as(owner.token, 'POST', `${proxy}/tasks`, body);
    expect(saved.statusCode, saved.body).toBe(200);
    const taskId = saved.json<{ id: string }>().id;
    expect((await as(owner.token, 'POST', `${proxy}/tasks/${taskId}/run`)).statusCode).toBe(202);
    const task = await waitFor(async () => {
      const t: Task | undefined = (await as(owner.token, 'GET', `${proxy}/tasks`)).json<TaskListResponse>()
        .tasks[taskId];
      return t?.lastRun && t.lastRun.result !== 'running' ? t : null;
    }, 'the task run');
    expect(task.lastRun).toMatchObject({ result: 'success' });
    const list = (await as(owner.token, 'GET', `${proxy}/backup`)).json<BackupList>();
    expect(list.backups[0]).toMatchObject({ trigger: 'task' });
  });

  it('progress and the result reach the panel socket of backup viewers only', async () => {
    const watcher = await n.user({
      viewServerConsole: true,
      viewServerBackups: true,
      createServerBackups: true,
    });
    const consoleOnly = await n.user({ viewServerConsole: true });
    const [a, b] = await Promise.all([socket(watcher.token), socket(consoleOnly.token)]);
    try {
      const created = await as(watcher.token, 'POST', `${proxy}/backup`);
      expect(created.statusCode, created.body).toBe(200);
      const { id, operation } = created.json<{ id: string; operation: string }>();
      const done = await waitFor(() => a.messages.find((m) => m.type === 'backup-done'), 'backup-done');
      expect(done.data).toMatchObject({ operation, kind: 'backup', ok: true, backupId: id });
      expect(a.messages.some((m) => m.type === 'backup-progress')).toBe(true);
      b.ws.send(JSON.stringify({ type: 'ping' }));
      await waitFor(() => b.messages.some((m) => m.type === 'pong'), 'pong');
      expect(b.messages.filter((m) => m.type.startsWith('backup'))).toEqual([]);
    } finally {
      a.ws.close();
      b.ws.close();
    }
  });

  it('the node’s backup settings are an administrator’s; an unreachable destination is refused and not kept', async () => {
    const nodeViewer = await n.user({}, { viewNodes: true, editNodes: true });
    expect((await as(nodeViewer.token, 'GET', `/api/nodes/${n.nodeId}/backups`)).statusCode).toBe(403);
    const status = await as(n.admin.token, 'GET', `/api/nodes/${n.nodeId}/backups`);
    expect(status.statusCode).toBe(200);
    expect(status.json<BackupNodeStatus>().destination).toMatchObject({ type: 'local', secrets: [] });
    const unreachable = await as(n.admin.token, 'PUT', `/api/nodes/${n.nodeId}/backups/destination`, {
      type: 'rest',
      url: 'http://127.0.0.1:9/repo/',
      username: 'u',
      password: 'never-echoed',
    });
    expect(unreachable.statusCode).toBe(502);
    expect(codeOf(unreachable)).toBe('ErrBackupDestinationUnreachable');
    expect(unreachable.body).not.toContain('never-echoed');
    const after = (await as(n.admin.token, 'GET', `/api/nodes/${n.nodeId}/backups`)).json<BackupNodeStatus>();
    expect(after.destination.type).toBe('local');
    const check = await as(n.admin.token, 'POST', `/api/nodes/${n.nodeId}/backups/check`);
    expect(check.statusCode).toBe(200);
    expect(check.json<{ ok: boolean }>().ok).toBe(true);
    expect((await as(nodeViewer.token, 'POST', `/api/nodes/${n.nodeId}/backups/check`)).statusCode).toBe(403);
  });
});
