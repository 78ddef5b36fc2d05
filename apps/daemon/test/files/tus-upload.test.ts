/**
 * Resumable (tus 1.0) uploads on a real daemon over HTTP: creation, offset, resume after a cut chunk, the
 * refusals (wrong offset, bytes past the length, paths out of the sandbox, the pending-upload quota, old
 * versions), termination, expiry, removal with the server, and that the partial file is outside the server
 * folder but inside the uploads folder beside it.
 */
import { lstat, mkdir, readFile, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon';
import { waitFor } from '../helpers/poll';

const ID = 'tus1';
let d: TestDaemon;
let admin: string;
let root: string;

const b64 = (text: string) => Buffer.from(text).toString('base64');

function tus(method: string, path: string, headers: Record<string, string> = {}, body?: Uint8Array) {
  return fetch(`${d.url}/daemon/server/${ID}/${path}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, 'tus-resumable': '1.0.0', ...headers },
    body,
  });
}

async function create(target: string, length: number, headers: Record<string, string> = {}) {
  return tus('POST', 'upload', {
    'upload-length': String(length),
    'upload-metadata': `path ${b64(target)},filename ${b64('x')}`,
    ...headers,
  });
}

async function created(target: string, length: number): Promise<string> {
  const res = await create(target, length);
  expect(res.status, await res.clone().text()).toBe(201);
  const location = res.headers.get('location') ?? '';
  expect(location).toMatch(/^upload\/[0-9a-f]{32}$/);
  return location;
}

const patch = (location: string, offset: number, data: Uint8Array) =>
  tus(
    'PATCH',
    location,
    { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    data,
  );

async function offsetOf(location: string): Promise<Response> {
  return tus('HEAD', location);
}

async function errorCode(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

beforeAll(async () => {
  d = await startTestDaemon({ files: { uploadQuotaBytes: 1_000_000 } });
  admin = await d.admin();
  await d.request('PUT', `/daemon/server/${ID}`, { token: admin, body: { run: { command: 'true' } } });
  root = join(d.config.serversDir ?? '', ID);
  await mkdir(root, { recursive: true });
}, 120_000);

afterAll(async () => {
  await d?.close();
});

describe('tus uploads', () => {
  it('creates, reports the offset, resumes after a cut and moves the file into place', async () => {
    const data = Buffer.alloc(300_000);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7 + 3) % 251;
    const location = await created('deep/folder/data.bin', data.length);
    const head0 = await offsetOf(location);
    expect(head0.status).toBe(200);
    expect(head0.headers.get('upload-offset')).toBe('0');
    expect(head0.headers.get('upload-length')).toBe(String(data.length));
    expect(head0.headers.get('tus-resumable')).toBe('1.0.0');
    expect(head0.headers.get('cache-control')).toBe('no-store');

    const first = await patch(location, 0, data.subarray(0, 100_000));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe('100000');
    // The partial file is beside the server folder, not in it.
    await expect(lstat(join(root, 'deep'))).rejects.toThrow();
    const uploads = join(d.config.serversDir ?? '', '.uploads', ID);
    expect((await readdir(uploads)).sort()).toHaveLength(2);

    // A connection cut mid-chunk: what arrived is kept, the client asks the offset and goes on from there.
    const controller = new AbortController();
    let pulls = 0;
    let sent: () => void = () => undefined;
    const wasSent = new Promise<void>((resolve) => (sent = resolve));
    const cut = fetch(`${d.url}/daemon/server/${ID}/${location}`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${admin}`,
        'tus-resumable': '1.0.0',
        'upload-offset': '100000',
        'content-type': 'application/offset+octet-stream',
      },
      body: new ReadableStream({
        pull(stream) {
          // The second pull: the first 50,000 bytes went to the socket; the rest never comes.
          if (pulls++ === 0) stream.enqueue(data.subarray(100_000, 150_000));
          else sent();
        },
      }),
      duplex: 'half',
      signal: controller.signal,
    });
    await wasSent;
    controller.abort();
    await cut.catch(() => undefined);
    // Until the daemon sees the cut, the upload is busy (409); then its offset is where the bytes stopped.
    const resumeAt =
      (await waitFor(
        async () => {
          const offset = Number((await offsetOf(location)).headers.get('upload-offset'));
          return (await patch(location, offset, new Uint8Array(0))).status === 204 ? offset + 1 : 0;
        },
        'the cut chunk to end',
        { timeoutMs: 30_000 },
      )) - 1;
    expect(resumeAt).toBeGreaterThanOrEqual(100_000);
    expect(resumeAt).toBeLessThanOrEqual(150_000);

    const last = await patch(location, resumeAt, data.subarray(resumeAt));
    expect(last.status).toBe(204);
    expect(last.headers.get('upload-offset')).toBe(String(data.length));
    expect(Buffer.compare(await readFile(join(root, 'deep/folder/data.bin')), data)).toBe(0);
    expect(await readdir(uploads)).toEqual([]);
    expect((await offsetOf(location)).status).toBe(404);
  });

  it('refuses a chunk at another offset with 409 and the real offset', async () => {
    const location = await created('offset.bin', 10);
    const res = await patch(location, 5, Buffer.from('abcde'));
    expect(res.status).toBe(409);
    expect(await errorCode(res)).toBe('ErrUploadOffset');
    expect((await patch(location, 0, Buffer.from('abc'))).status).toBe(204);
    expect((await patch(location, 0, Buffer.from('abc'))).status).toBe(409);
    expect((await tus('DELETE', location)).status).toBe(204);
  });

  it('cuts a chunk whose client went quiet when a new chunk comes, keeping what it wrote', async () => {
    const data = Buffer.from('0123456789abcdefghij');
    const location = await created('quiet.bin', data.length);
    let pulls = 0;
    let sent: () => void = () => undefined;
    const wasSent = new Promise<void>((resolve) => (sent = resolve));
    // A chunk that sends 8 bytes and then nothing, its connection still open (a client stuck or gone).
    const quiet = fetch(`${d.url}/daemon/server/${ID}/${location}`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${admin}`,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: new ReadableStream({
        pull(stream) {
          if (pulls++ === 0) stream.enqueue(data.subarray(0, 8));
          else sent();
        },
      }),
      duplex: 'half',
    }).catch(() => null);
    await wasSent;
    // The next chunk is judged against the offset the quiet one left: 0 if its bytes had not arrived, else 8.
    const resumed = await waitFor(
      async () => {
        const offset = Number((await offsetOf(location)).headers.get('upload-offset'));
        const res = await patch(location, offset, data.subarray(offset));
        return res.status === 204 ? res : null;
      },
      'a chunk after the quiet one',
      { timeoutMs: 30_000 },
    );
    expect(resumed.headers.get('upload-offset')).toBe(String(data.length));
    expect((await readFile(join(root, 'quiet.bin'))).equals(data)).toBe(true);
    await quiet;
  });

  it('refuses bytes past the declared length with 413 and keeps the file out of place', async () => {
    const location = await created('long.bin', 4);
    const res = await patch(location, 0, Buffer.from('abcdefgh'));
    expect(res.status).toBe(413);
    expect(await errorCode(res)).toBe('ErrFileTooLarge');
    await expect(lstat(join(root, 'long.bin'))).rejects.toThrow();
    expect((await tus('DELETE', location)).status).toBe(204);
  });

  it('refuses paths out of the server folder, at creation and when moving into place', async () => {
    for (const target of ['../escape.bin', '/etc/passwd', 'a/../../b', '']) {
      const res = await create(target, 3);
      expect(res.status, target).toBe(target === '' ? 400 : 400);
    }
    await symlink(tmpdir(), join(root, 'out-link'));
    const res = await create('out-link/escape.bin', 3);
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe('ErrIllegalFileAccess');
    // A link swapped in after the creation is refused when the file is moved into place.
    const location = await created('later/escape.bin', 3);
    await symlink(tmpdir(), join(root, 'later'));
    const done = await patch(location, 0, Buffer.from('abc'));
    expect(done.status).toBe(400);
    expect(await errorCode(done)).toBe('ErrIllegalFileAccess');
    await expect(lstat(join(tmpdir(), 'escape.bin'))).rejects.toThrow();
  });

  it('refuses uploads past the server’s quota of pending bytes, and lengths past the limit', async () => {
    const a = await created('quota-a.bin', 600_000);
    const res = await create('quota-b.bin', 600_000);
    expect(res.status).toBe(507);
    expect(await errorCode(res)).toBe('ErrUploadNoSpace');
    expect((await tus('DELETE', a)).status).toBe(204);
    expect((await create('quota-b.bin', 600_000)).status).toBe(201);
    const huge = await create('huge.bin', 20 * 1024 ** 4);
    expect(huge.status).toBe(413);
  });

  it('answers 412 to another tus version, 404 to an unknown upload, 400 without Upload-Length', async () => {
    const res = await tus('POST', 'upload', {
      'tus-resumable': '0.2.2',
      'upload-length': '3',
      'upload-metadata': `path ${b64('v.bin')}`,
    });
    expect(res.status).toBe(412);
    expect(await errorCode(res)).toBe('ErrTusVersion');
    expect((await offsetOf(`upload/${'0'.repeat(32)}`)).status).toBe(404);
    expect((await offsetOf('upload/not-an-id')).status).toBe(404);
    expect((await tus('POST', 'upload', { 'upload-metadata': `path ${b64('v.bin')}` })).status).toBe(400);
  });

  it('needs putServerFiles', async () => {
    const viewer = await d.user(ID, ['viewServerFiles']);
    const res = await fetch(`${d.url}/daemon/server/${ID}/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${viewer}`,
        'tus-resumable': '1.0.0',
        'upload-length': '1',
        'upload-metadata': `path ${b64('p.bin')}`,
      },
    });
    expect(res.status).toBe(403);
  });

  it('removes the server’s unfinished uploads with the server', async () => {
    const other = 'tus2';
    await d.request('PUT', `/daemon/server/${other}`, { token: admin, body: { run: { command: 'true' } } });
    const res = await fetch(`${d.url}/daemon/server/${other}/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${admin}`,
        'tus-resumable': '1.0.0',
        'upload-length': '10',
        'upload-metadata': `path ${b64('gone.bin')}`,
      },
    });
    expect(res.status).toBe(201);
    const folder = join(d.config.serversDir ?? '', '.uploads', other);
    expect(await readdir(folder)).toHaveLength(2);
    expect((await d.request('DELETE', `/daemon/server/${other}`, { token: admin })).status).toBe(204);
    await expect(lstat(folder)).rejects.toThrow();
  });
});

describe('tus upload expiry', () => {
  let e: TestDaemon;
  afterAll(async () => {
    await e?.close();
  });

  it('removes an upload untouched past the expiry', async () => {
    e = await startTestDaemon({ files: { uploadExpiryMs: 1_000 } });
    const token = await e.admin();
    await e.request('PUT', `/daemon/server/${ID}`, { token, body: { run: { command: 'true' } } });
    const call = (method: string, path: string, headers: Record<string, string>, body?: Uint8Array) =>
      fetch(`${e.url}/daemon/server/${ID}/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', ...headers },
        body,
      });
    const res = await call('POST', 'upload', {
      'upload-length': '10',
      'upload-metadata': `path ${b64('e.bin')}`,
    });
    const location = res.headers.get('location') ?? '';
    const chunk = { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' };
    expect((await call('PATCH', location, chunk, Buffer.from('12345'))).status).toBe(204);
    await waitFor(async () => (await call('HEAD', location, {})).status === 404, 'the expiry', {
      timeoutMs: 60_000,
    });
    expect(await readdir(join(e.config.serversDir ?? '', '.uploads', ID))).toEqual([]);
  }, 90_000);
});
