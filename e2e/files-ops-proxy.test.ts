/**
 * Move (rename), copy, chmod and search through the panel proxy against a real daemon (docs/files.md § Rename,
 * move, copy, permissions, search): the permission ladder of each route (anonymous 401 → no access 404 →
 * missing flag 403 → allowed), a user with only viewServerFiles refused every change, then the operations
 * themselves with their refusals (taken target 409, into itself 400, setuid 400) on the real sandbox.
 */
import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/panel/test/helpers/app';
import { filesFixture, type FilesFixture } from './helpers/files-fixture';

describe('file operations through the panel proxy', () => {
  let f: FilesFixture;
  const url = (path: string) => `${f.panelUrl}/proxy/daemon/server/${f.serverId}${path}`;
  const req = (method: string, path: string, token?: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(url(path), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  };
  const codeOf = async (res: Response) => ((await res.json()) as { error?: { code?: string } }).error?.code;

  beforeAll(async () => {
    f = await filesFixture();
    await mkdir(join(f.serverRoot, 'world', 'region'), { recursive: true });
    await writeFile(join(f.serverRoot, 'world', 'level.dat'), 'level');
    await writeFile(join(f.serverRoot, 'world', 'region', 'r.0.0.mca'), 'region');
    await writeFile(join(f.serverRoot, 'server.properties'), 'motd=hi');
  });
  afterAll(async () => {
    await f?.close();
  });

  it('walks the permission ladder: changes need putServerFiles, search needs viewServerFiles', async () => {
    const stranger = (await createUser(f.t)).token;
    const consoleUser = (await f.user({ viewServerConsole: true, sendServerConsole: true })).token;
    const viewer = (await f.user({ viewServerFiles: true })).token;
    const writer = (await f.user({ viewServerFiles: true, putServerFiles: true })).token;
    const changes: Array<[string, unknown]> = [
      ['/move', { from: 'server.properties', to: 'moved.properties' }],
      ['/copy', { from: 'server.properties', to: 'copied.properties' }],
      ['/chmod', { path: 'server.properties', mode: 0o600 }],
    ];
    for (const [path, body] of changes) {
      expect((await req('POST', path, undefined, body)).status, `anonymous ${path}`).toBe(401);
      expect((await req('POST', path, stranger, body)).status, `stranger ${path}`).toBe(404);
      expect((await req('POST', path, consoleUser, body)).status, `console ${path}`).toBe(403);
      expect((await req('POST', path, viewer, body)).status, `viewer ${path}`).toBe(403);
    }
    // Nothing changed for the refused callers.
    expect(await readFile(join(f.serverRoot, 'server.properties'), 'utf8')).toBe('motd=hi');
    expect((await stat(join(f.serverRoot, 'server.properties'))).mode & 0o777).not.toBe(0o600);
    await expect(stat(join(f.serverRoot, 'copied.properties'))).rejects.toThrow();

    expect((await req('GET', '/search?q=level')).status).toBe(401);
    expect((await req('GET', '/search?q=level', stranger)).status).toBe(404);
    expect((await req('GET', '/search?q=level', consoleUser)).status).toBe(403);
    expect((await req('GET', '/search?q=level', viewer)).status).toBe(200);

    expect((await req('POST', '/copy', writer, changes[1]?.[1])).status).toBe(200);
    expect((await req('POST', '/chmod', writer, changes[2]?.[1])).status).toBe(204);
    expect(
      (await req('POST', '/move', writer, { from: 'copied.properties', to: 'moved.properties' })).status,
    ).toBe(204);
  });

  it('renames, moves, copies, changes modes and searches; refuses what it must', async () => {
    const token = f.admin.token;
    const root = f.serverRoot;
    expect((await req('POST', '/move', token, { from: 'world', to: 'world-renamed' })).status).toBe(204);
    await mkdir(join(root, 'archive'));
    expect((await req('POST', '/move', token, { from: 'world-renamed', to: 'archive/world' })).status).toBe(
      204,
    );
    expect(await readFile(join(root, 'archive', 'world', 'level.dat'), 'utf8')).toBe('level');

    const copied = await req('POST', '/copy', token, { from: 'archive/world', to: 'world' });
    expect(copied.status).toBe(200);
    expect(await copied.json()).toEqual({ path: 'world', files: 2, folders: 2, bytes: 11, skipped: [] });
    expect(await readFile(join(root, 'world', 'region', 'r.0.0.mca'), 'utf8')).toBe('region');

    const taken = await req('POST', '/copy', token, { from: 'archive/world', to: 'world' });
    expect(taken.status).toBe(409);
    expect(await codeOf(taken)).toBe('ErrFileExists');
    const takenMove = await req('POST', '/move', token, {
      from: 'server.properties',
      to: 'moved.properties',
    });
    expect(takenMove.status).toBe(409);
    const overwrite = await req('POST', '/move', token, {
      from: 'server.properties',
      to: 'moved.properties',
      overwrite: true,
    });
    expect(overwrite.status).toBe(204);
    expect(await readFile(join(root, 'moved.properties'), 'utf8')).toBe('motd=hi');

    const intoItself = await req('POST', '/move', token, { from: 'world', to: 'world/region/w' });
    expect(intoItself.status).toBe(400);
    expect(await codeOf(intoItself)).toBe('ErrMoveIntoItself');
    const missing = await req('POST', '/copy', token, { from: 'nope', to: 'nope2' });
    expect(missing.status).toBe(404);
    expect(await codeOf(missing)).toBe('ErrFileNotFound');

    expect((await req('POST', '/chmod', token, { path: 'moved.properties', mode: 0o640 })).status).toBe(204);
    expect((await stat(join(root, 'moved.properties'))).mode & 0o7777).toBe(0o640);
    const setuid = await req('POST', '/chmod', token, { path: 'moved.properties', mode: 0o4755 });
    expect(setuid.status).toBe(400);
    expect(await codeOf(setuid)).toBe('ErrFieldTooLarge');
    const listing = (await (await req('GET', '/file/', token)).json()) as {
      files: Array<{ name: string; mode?: number }>;
    };
    expect(listing.files.find((e) => e.name === 'moved.properties')?.mode).toBe(0o640);

    const found = (await (await req('GET', '/search?q=*.mca', token)).json()) as {
      results: Array<{ path: string }>;
      truncated: boolean;
    };
    expect(found.results.map((r) => r.path).sort()).toEqual([
      'archive/world/region/r.0.0.mca',
      'world/region/r.0.0.mca',
    ]);
    expect(found.truncated).toBe(false);
    const below = (await (await req('GET', '/search?q=LEVEL&path=archive&limit=1', token)).json()) as {
      results: Array<{ path: string }>;
    };
    expect(below.results.map((r) => r.path)).toEqual(['archive/world/level.dat']);
    expect((await req('GET', '/search?q=', token)).status).toBe(400);
  });
});
