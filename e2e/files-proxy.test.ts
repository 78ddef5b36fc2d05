/**
 * Files through the panel proxy against a real daemon, on every dialect: the permission ladder (anonymous
 * 401 → no access 404 → missing flag 403 → allowed), a streamed multipart upload and download of the same
 * bytes, folder create/list/delete, archive then extract; console permissions never open files.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/panel/test/helpers/app';
import { DIALECTS } from '../apps/panel/test/helpers/dialects';
import { filesFixture, type FilesFixture } from './helpers/files-fixture';

describe.each(DIALECTS)('files through the panel proxy on %s', (dialect) => {
  let f: FilesFixture;
  const url = (path: string) => `${f.panelUrl}/proxy/daemon/server/${f.serverId}${path}`;
  const req = (method: string, path: string, token?: string, body?: string | FormData, type?: string) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (type) headers['content-type'] = type;
    return fetch(url(path), { method, headers, body });
  };
  const form = (data: Uint8Array, name = 'f.bin') => {
    const fd = new FormData();
    fd.append('file', new Blob([data]), name);
    return fd;
  };

  beforeAll(async () => {
    f = await filesFixture(dialect);
  });
  afterAll(async () => {
    await f?.close();
  });

  it('walks the permission ladder on every file route', async () => {
    const stranger = (await createUser(f.t)).token;
    const consoleUser = (await f.user({ viewServerConsole: true, sendServerConsole: true })).token;
    const viewer = (await f.user({ viewServerFiles: true })).token;
    const writer = (await f.user({ viewServerFiles: true, putServerFiles: true })).token;
    expect((await req('GET', '/file/')).status).toBe(401);
    expect((await req('GET', '/file/', stranger)).status).toBe(404);
    expect((await req('GET', '/file/', consoleUser)).status).toBe(403);
    expect((await req('GET', '/file/', viewer)).status).toBe(200);
    expect((await req('PUT', '/file/d?folder=true', viewer)).status).toBe(403);
    expect((await req('PUT', '/file/d?folder=true', writer)).status).toBe(204);
    expect((await req('PUT', '/file/up.txt', viewer, form(Buffer.from('x')))).status).toBe(403);
    expect((await req('DELETE', '/file/d', viewer)).status).toBe(403);
    expect((await req('POST', '/archive/a.zip', viewer, '["d"]', 'application/json')).status).toBe(403);
    expect((await req('GET', '/extract/a.zip', viewer)).status).toBe(403);
    expect((await req('DELETE', '/file/d', writer)).status).toBe(204);
  });

  it('streams an upload and the download back byte for byte; lists, archives and extracts', async () => {
    const token = f.admin.token;
    const data = randomBytes(8 * 1024 * 1024 + 3);
    expect((await req('PUT', '/file/deep/dir/blob.bin', token, form(data))).status).toBe(204);
    const down = await req('GET', '/file/deep/dir/blob.bin', token);
    expect(down.headers.get('content-disposition')).toContain('blob.bin');
    expect(Buffer.from(await down.arrayBuffer()).equals(data)).toBe(true);
    const list = (await (await req('GET', '/file/deep', token)).json()) as { files: { name: string }[] };
    expect(list.files.map((e) => e.name)).toEqual(['..', 'dir']);
    const zipped = await req('POST', '/archive/deep.zip', token, '["deep/dir"]', 'application/json');
    expect(await zipped.json()).toEqual({ path: 'deep.zip' });
    const out = await req('GET', '/extract/deep.zip?destination=unpacked', token);
    expect(out.status).toBe(200);
    const back = await req('GET', '/file/unpacked/dir/blob.bin', token);
    expect(Buffer.from(await back.arrayBuffer()).equals(data)).toBe(true);
  });
});
