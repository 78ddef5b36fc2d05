/**
 * The `archive` and `extract` processors run the file API's code: round trip, a `..` source refused, and the
 * operator's `files.maxExtract*` limits applied to an install step, which then leaves nothing behind.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCatalogue } from '@hearth/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon';

let d: TestDaemon;
/** A daemon whose operator allows 3 entries and 1,000 bytes per extraction. */
let strict: TestDaemon;
beforeAll(async () => {
  d = await startTestDaemon();
  strict = await startTestDaemon({ files: { maxExtractEntries: 3, maxExtractBytes: 1_000 } });
});
afterAll(async () => {
  await d.close();
  await strict.close();
});

async function install(
  id: string,
  steps: unknown[],
  on: TestDaemon = d,
): Promise<{ status: number; logs: string; code?: string; reason?: unknown }> {
  const d = on;
  const token = await d.admin();
  await d.request('PUT', `/daemon/server/${id}`, {
    token,
    body: { run: { command: 'true' }, install: steps },
  });
  const res = await d.request('POST', `/daemon/server/${id}/install?wait=true`, { token });
  type Failure = { error?: { code: string; metadata?: { reason?: unknown } } };
  const body = res.status === 204 ? null : ((await res.json()) as Failure);
  const console = await d.request('GET', `/daemon/server/${id}/console`, { token });
  const logs = ((await console.json()) as { logs: string }).logs;
  return { status: res.status, logs, code: body?.error?.code, reason: body?.error?.metadata?.reason };
}

describe('archive and extract processors', () => {
  it('archives a folder, then extracts it elsewhere', async () => {
    const { status, logs } = await install('arc1', [
      { type: 'writefile', target: 'world/level.dat', text: 'level' },
      { type: 'archive', source: 'world', destination: 'backup.zip' },
      { type: 'archive', source: ['world'], destination: 'backup.zip' },
      { type: 'extract', source: 'backup (2).zip', destination: 'restored' },
    ]);
    expect(status, logs).toBe(204);
    expect(logs).toContain('into backup (2).zip');
    const root = join(d.config.serversDir ?? '', 'arc1');
    expect(await readFile(join(root, 'restored', 'world', 'level.dat'), 'utf8')).toBe('level');
  });

  it('refuses paths outside the server folder', async () => {
    const { status, logs } = await install('arc2', [{ type: 'extract', source: '../arc1/backup.zip' }]);
    expect(status).toBe(400);
    expect(logs).toMatch(/not allowed|\.\./);
  });
});

describe('extract processor limits (files.maxExtract*)', () => {
  const files = (count: number, text: string) =>
    Array.from({ length: count }, (_, i) => ({ type: 'writefile', target: `pack/f${i}.txt`, text }));

  it('refuses an archive with more entries than allowed and leaves no folder behind', async () => {
    const { status, code, reason, logs } = await install(
      'lim1',
      [
        ...files(5, 'x'),
        { type: 'archive', source: 'pack', destination: 'pack.zip' },
        { type: 'extract', source: 'pack.zip', destination: 'out' },
      ],
      strict,
    );
    expect(status, logs).toBe(413);
    // A failed step is ErrProcessorFailed with the step's own status and catalogued message.
    expect(code).toBe('ErrProcessorFailed');
    expect(reason).toBe(errorCatalogue.ErrArchiveTooLarge.message);
    const root = join(strict.config.serversDir ?? '', 'lim1');
    expect((await readdir(root)).sort()).toEqual(['pack', 'pack.zip']);
  });

  it('refuses an archive that unpacks to more bytes than allowed and writes nothing', async () => {
    const { status, code, reason, logs } = await install(
      'lim2',
      [
        ...files(2, 'y'.repeat(800)),
        { type: 'archive', source: 'pack', destination: 'pack.zip' },
        { type: 'extract', source: 'pack.zip' },
      ],
      strict,
    );
    expect(status, logs).toBe(413);
    // A failed step is ErrProcessorFailed with the step's own status and catalogued message.
    expect(code).toBe('ErrProcessorFailed');
    expect(reason).toBe(errorCatalogue.ErrArchiveTooLarge.message);
    const root = join(strict.config.serversDir ?? '', 'lim2');
    expect((await readdir(root)).sort()).toEqual(['pack', 'pack.zip']);
  });

  it('a stream that grows past the byte limit while unpacking leaves no destination folder behind', async () => {
    // A .gz has no size to judge before writing: the limit stops it mid-stream, after the folder was made.
    const { status, code, reason, logs } = await install(
      'lim4',
      [
        { type: 'writefile', target: 'big.txt', text: 'z'.repeat(5_000) },
        { type: 'command', commands: ['gzip big.txt'] },
        { type: 'extract', source: 'big.txt.gz', destination: 'out' },
      ],
      strict,
    );
    expect(status, logs).toBe(413);
    expect(code).toBe('ErrProcessorFailed');
    expect(reason).toBe(errorCatalogue.ErrArchiveTooLarge.message);
    expect(await readdir(join(strict.config.serversDir ?? '', 'lim4'))).toEqual(['big.txt.gz']);
  });

  it('the same archive within the limits extracts on the default daemon', async () => {
    const { status, logs } = await install('lim3', [
      ...files(5, 'x'),
      { type: 'archive', source: 'pack', destination: 'pack.zip' },
      { type: 'extract', source: 'pack.zip', destination: 'out' },
    ]);
    expect(status, logs).toBe(204);
    expect(await readdir(join(d.config.serversDir ?? '', 'lim3', 'out', 'pack'))).toHaveLength(5);
  });
});
