/** Helpers of the backup tests: a server with files, and the backup routes called as a user of it. */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import type { BackupList } from '@hearth/contract';
import { fakeGameDefinition, type TestDaemon } from './test-daemon';

export const BACKUP_FLAGS = [
  'viewServerBackups',
  'createServerBackups',
  'restoreServerBackups',
  'deleteServerBackups',
  'downloadServerBackups',
] as const;

/** Creates a fake-game server whose folder holds `files` (relative path → content). */
export async function serverWithFiles(
  d: TestDaemon,
  id: string,
  files: Record<string, string>,
): Promise<string> {
  const created = await d.request('PUT', `/daemon/server/${id}`, {
    token: await d.admin(),
    body: fakeGameDefinition(),
  });
  expect(created.status).toBe(200);
  const root = join(d.config.serversDir ?? '', id);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

export async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** POST …/backup as an admin; the new snapshot's id. */
export async function backupNow(d: TestDaemon, id: string): Promise<string> {
  const res = await d.request('POST', `/daemon/server/${id}/backup`, { token: await d.admin() });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json<{ id: string }>(res)).id;
}

export async function listBackups(d: TestDaemon, id: string): Promise<BackupList> {
  const res = await d.request('GET', `/daemon/server/${id}/backup`, { token: await d.admin() });
  expect(res.status).toBe(200);
  return json<BackupList>(res);
}

export async function errorCode(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}
