/**
 * Resumable (tus) uploads through the panel proxy against a real daemon: the permission ladder on every tus
 * route (anonymous 401 → no access 404 → without putServerFiles 403 → allowed), the protocol's headers passed
 * both ways (a relative `Location` that resolves to the proxy's path, `Upload-Offset`, `Tus-Resumable`), a
 * chunked upload that lands in the server folder, and termination.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/panel/test/helpers/app';
import { filesFixture, type FilesFixture } from './helpers/files-fixture';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('tus uploads through the panel proxy', () => {
  let f: FilesFixture;
  const base = () => `${f.panelUrl}/proxy/daemon/server/${f.serverId}/upload`;
  const tus = (
    method: string,
    url: string,
    token?: string,
    headers: Record<string, string> = {},
    body?: Buffer,
  ) =>
    fetch(url, {
      method,
      headers: {
        'tus-resumable': '1.0.0',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body,
    });
  const create = (token: string | undefined, path: string, length: number) =>
    tus('POST', base(), token, {
      'upload-length': String(length),
      'upload-metadata': `path ${b64(path)},filename ${b64(path.split('/').at(-1) ?? '')}`,
    });
  const chunk = (url: string, token: string, offset: number, data: Buffer) =>
    tus(
      'PATCH',
      url,
      token,
      { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      data,
    );

  beforeAll(async () => {
    f = await filesFixture('sqlite');
  });
  afterAll(async () => {
    await f?.close();
  });

  it('walks the permission ladder on every tus route', async () => {
    const stranger = (await createUser(f.t)).token;
    const viewer = (await f.user({ viewServerFiles: true })).token;
    const writer = (await f.user({ viewServerFiles: true, putServerFiles: true })).token;
    expect((await create(undefined, 'a.bin', 3)).status).toBe(401);
    expect((await create(stranger, 'a.bin', 3)).status).toBe(404);
    expect((await create(viewer, 'a.bin', 3)).status).toBe(403);
    const made = await create(writer, 'a.bin', 3);
    expect(made.status, await made.clone().text()).toBe(201);
    const url = new URL(made.headers.get('location') ?? '', base()).href;
    for (const [method, headers] of [
      ['HEAD', {}],
      ['PATCH', { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }],
      ['DELETE', {}],
    ] as const) {
      expect((await tus(method, url, undefined, headers)).status, `${method} anonymous`).toBe(401);
      expect((await tus(method, url, stranger, headers)).status, `${method} stranger`).toBe(404);
      expect((await tus(method, url, viewer, headers)).status, `${method} viewer`).toBe(403);
    }
    expect((await tus('DELETE', url, writer)).status).toBe(204);
    expect((await tus('HEAD', url, writer)).status).toBe(404);
  });

  it('uploads in chunks through the proxy, the headers passed both ways', async () => {
    const token = f.admin.token;
    const data = randomBytes(3 * 1024 * 1024 + 5);
    const made = await create(token, 'tus/dir/blob.bin', data.length);
    expect(made.status).toBe(201);
    expect(made.headers.get('tus-resumable')).toBe('1.0.0');
    const url = new URL(made.headers.get('location') ?? '', base()).href;
    expect(url).toMatch(new RegExp(`/proxy/daemon/server/${f.serverId}/upload/[0-9a-f]{32}$`));
    const cut = 1024 * 1024 + 7;
    const first = await chunk(url, token, 0, data.subarray(0, cut));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe(String(cut));
    const head = await tus('HEAD', url, token);
    expect(head.headers.get('upload-offset')).toBe(String(cut));
    expect(head.headers.get('upload-length')).toBe(String(data.length));
    const wrong = await chunk(url, token, 0, data.subarray(0, 10));
    expect(wrong.status).toBe(409);
    const last = await chunk(url, token, cut, data.subarray(cut));
    expect(last.status).toBe(204);
    expect(last.headers.get('upload-offset')).toBe(String(data.length));
    expect((await readFile(join(f.serverRoot, 'tus/dir/blob.bin'))).equals(data)).toBe(true);
  });
});
