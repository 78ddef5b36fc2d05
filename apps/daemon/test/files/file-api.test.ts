/** The daemon's file API over real HTTP: listing, streamed upload/download, folders, delete, archive, extract. */
import { lstat, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeArchives } from './archives';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon';

const ID = 'files1';
let d: TestDaemon;
let admin: string;
let fixtures: string;
let root: string;

async function upload(path: string, data: Buffer | string, token = admin): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([data]), path.split('/').at(-1));
  return fetch(`${d.url}/daemon/server/${ID}/file/${path}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

async function extract(archive: string, destination: string) {
  const res = await d.request(
    'GET',
    `/daemon/server/${ID}/extract/${archive}?destination=${encodeURIComponent(destination)}`,
    { token: admin },
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  d = await startTestDaemon({ files: { maxExtractBytes: 16 * 1024 * 1024, maxExtractEntries: 1000 } });
  admin = await d.admin();
  await d.request('PUT', `/daemon/server/${ID}`, { token: admin, body: { run: { command: 'true' } } });
  root = join(d.config.serversDir ?? '', ID);
  await mkdir(root, { recursive: true });
  fixtures = await mkdtemp(join(tmpdir(), 'hearth-archives-'));
  await makeArchives(fixtures);
}, 120_000);

afterAll(async () => {
  await d.close();
  await rm(fixtures, { recursive: true, force: true });
});

describe('file API', () => {
  it('lists folders first then files by name ignoring case, with a parent entry below the root', async () => {
    await mkdir(join(root, 'list', 'Beta'), { recursive: true });
    await mkdir(join(root, 'list', 'alpha'));
    for (const name of ['b.txt', 'A.txt', 'c.TXT']) await writeFile(join(root, 'list', name), name);
    await symlink('/etc', join(root, 'list', 'etc-link'));
    const res = await d.request('GET', `/daemon/server/${ID}/file/list`, { token: admin });
    const body = (await res.json()) as {
      files: Array<{ name: string; isFile: boolean; size: number }>;
      path: string;
    };
    expect(body.path).toBe('list');
    expect(body.files.map((f) => f.name)).toEqual([
      '..',
      'alpha',
      'Beta',
      'A.txt',
      'b.txt',
      'c.TXT',
      'etc-link',
    ]);
    const rootList = (await (
      await d.request('GET', `/daemon/server/${ID}/file/`, { token: admin })
    ).json()) as {
      files: Array<{ name: string }>;
    };
    expect(rootList.files.map((f) => f.name)).not.toContain('..');
  });

  it('uploads a multipart file atomically and downloads it with Content-Disposition', async () => {
    const data = Buffer.alloc(3 * 1024 * 1024 + 17, 0x5a);
    expect((await upload('up/big file.bin', data)).status).toBe(204);
    const res = await d.request('GET', `/daemon/server/${ID}/file/up/big%20file.bin`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('big file.bin');
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
    expect((await readdir(join(root, 'up'))).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('creates a folder, deletes recursively, and never deletes the root', async () => {
    const put = await d.request('PUT', `/daemon/server/${ID}/file/made/deep?folder=true`, { token: admin });
    expect(put.status).toBe(204);
    expect((await stat(join(root, 'made', 'deep'))).isDirectory()).toBe(true);
    expect((await d.request('DELETE', `/daemon/server/${ID}/file/made`, { token: admin })).status).toBe(204);
    await expect(stat(join(root, 'made'))).rejects.toThrow();
    expect((await d.request('DELETE', `/daemon/server/${ID}/file/`, { token: admin })).status).toBe(400);
  });

  it('needs viewServerFiles to read and putServerFiles to change; console permissions never help', async () => {
    const viewer = await d.user(ID, ['viewServerFiles']);
    const consoleOnly = await d.user(ID, ['viewServerConsole', 'sendServerConsole']);
    expect((await d.request('GET', `/daemon/server/${ID}/file/`, { token: viewer })).status).toBe(200);
    expect((await d.request('GET', `/daemon/server/${ID}/file/`, { token: consoleOnly })).status).toBe(403);
    expect((await upload('nope.txt', 'x', viewer)).status).toBe(403);
    expect((await d.request('DELETE', `/daemon/server/${ID}/file/up`, { token: viewer })).status).toBe(403);
    const writer = await d.user(ID, ['putServerFiles']);
    expect((await upload('yes.txt', 'x', writer)).status).toBe(204);
    const other = await d.user('otherserver', ['viewServerFiles', 'putServerFiles']);
    expect((await d.request('GET', `/daemon/server/${ID}/file/`, { token: other })).status).toBe(403);
  });

  it('archives paths into name.zip, then name (2).zip', async () => {
    await writeFile(join(root, 'list', 'A.txt'), 'archived');
    const post = (dest: string) =>
      d.request('POST', `/daemon/server/${ID}/archive/${dest}`, {
        token: admin,
        body: ['list/A.txt', 'list/alpha'],
      });
    expect(await (await post('list.zip')).json()).toEqual({ path: 'list.zip' });
    expect(await (await post('list.zip')).json()).toEqual({ path: 'list (2).zip' });
    const back = await extract('list.zip', 'unzipped');
    expect(back.status).toBe(200);
    expect(await readFile(join(root, 'unzipped', 'A.txt'), 'utf8')).toBe('archived');
  });
});

describe('extract', () => {
  const real = ['real.zip', 'real.jar', 'real.tar', 'real.tgz', 'real.tar.xz', 'real.tar.bz2', 'real.7z'];
  it.each(real)('extracts %s made by the real tool', async (name) => {
    expect((await upload(`archives/${name}`, await readFile(join(fixtures, name)))).status).toBe(204);
    const { status, body } = await extract(`archives/${name}`, `out/${name}`);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(await readFile(join(root, 'out', name, 'readme.txt'), 'utf8')).toBe('hello archive');
    if (name !== 'real.jar')
      expect(await readFile(join(root, 'out', name, 'world', 'level.dat'), 'utf8')).toBe('level');
  });

  it.each(['single.txt.gz', 'single.txt.xz', 'single.txt.bz2'])(
    'decompresses the stream %s',
    async (name) => {
      await upload(`archives/${name}`, await readFile(join(fixtures, name)));
      expect((await extract(`archives/${name}`, 'single')).status).toBe(200);
      expect(await readFile(join(root, 'single', 'single.txt'), 'utf8')).toBe('hello archive');
    },
  );

  it.each(['evil.zip', 'evil.tar'])(
    'skips ../, absolute and link entries of %s; writes nothing outside',
    async (name) => {
      await upload(`archives/${name}`, await readFile(join(fixtures, name)));
      const { status, body } = await extract(`archives/${name}`, 'evil');
      expect(status).toBe(200);
      const skipped = (body.skipped as Array<{ name: string }>).map((s) => s.name);
      expect(skipped.length).toBeGreaterThanOrEqual(3);
      expect(await readFile(join(root, 'evil', 'good', 'ok.txt'), 'utf8')).toBe('fine');
      for (const outside of ['zip-escape.txt', 'tar-escape.txt']) {
        await expect(stat(join(root, outside))).rejects.toThrow();
        await expect(stat(join(root, '..', outside))).rejects.toThrow();
      }
      await expect(stat('/tmp/zip-absolute.txt')).rejects.toThrow();
      await expect(stat('/tmp/tar-absolute.txt')).rejects.toThrow();
      const evil = await readdir(join(root, 'evil'));
      for (const entry of evil) expect((await lstat(join(root, 'evil', entry))).isSymbolicLink()).toBe(false);
    },
  );

  it.each(['bomb.zip', 'bomb.tar', 'stream-bomb.gz'])(
    'refuses the bomb %s and leaves no partial file',
    async (name) => {
      await upload(`archives/${name}`, await readFile(join(fixtures, name)));
      const { status, body } = await extract(`archives/${name}`, `bomb-${name}`);
      expect(status).toBe(413);
      expect((body.error as { code: string }).code).toBe('ErrArchiveTooLarge');
      const left = await readdir(join(root, `bomb-${name}`)).catch(() => []);
      expect(left).toEqual([]);
    },
  );
});
