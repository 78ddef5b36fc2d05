/**
 * The installed mark (docs/daemon.md § Installed mark): a new server reports `installed: false` until an install
 * succeeds, a failed install leaves it so, the mark survives a daemon restart, a definition without install
 * steps counts as installed, and start stays allowed over the API before any install (SPEC's behaviour).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

const status = async (d: TestDaemon, token: string, id: string) =>
  (await (await d.request('GET', `/daemon/server/${id}/status`, { token })).json()) as {
    running: boolean;
    installing: boolean;
    installed?: boolean;
  };

describe('installed mark', () => {
  let d: TestDaemon;
  let again: TestDaemon | undefined;
  let serversDir: string;

  beforeAll(async () => {
    serversDir = await mkdtemp(join(tmpdir(), 'hearth-installed-'));
    d = await startTestDaemon({ serversDir });
  });
  afterAll(async () => {
    await d?.close().catch(() => undefined);
    await again?.close();
    await rm(serversDir, { recursive: true, force: true });
  });

  it('is false for a new server and after a failed install, true after a successful one', async () => {
    const token = await d.admin();
    const put = (id: string, body: unknown) => d.request('PUT', `/daemon/server/${id}`, { token, body });
    expect((await put('fresh', fakeGameDefinition())).status).toBe(200);
    expect(await status(d, token, 'fresh')).toEqual({ running: false, installing: false, installed: false });

    const failing = { ...fakeGameDefinition(), install: [{ type: 'command', commands: ['false'] }] };
    expect((await put('failing', failing)).status).toBe(200);
    await d.request('POST', '/daemon/server/failing/install?wait=true', { token });
    expect((await status(d, token, 'failing')).installed).toBe(false);

    expect((await put('done', fakeGameDefinition())).status).toBe(200);
    expect((await d.request('POST', '/daemon/server/done/install?wait=true', { token })).status).toBe(204);
    expect((await status(d, token, 'done')).installed).toBe(true);

    expect((await put('nosteps', { ...fakeGameDefinition(), install: [] })).status).toBe(200);
    expect((await status(d, token, 'nosteps')).installed).toBe(true);
  });

  it('start is still accepted before any install (the web only offers Install first)', async () => {
    const token = await d.admin();
    expect((await d.request('POST', '/daemon/server/fresh/start?wait=true', { token })).status).toBe(204);
    expect(await status(d, token, 'fresh')).toMatchObject({ running: true, installed: false });
    expect((await d.request('POST', '/daemon/server/fresh/kill?wait=true', { token })).status).toBe(204);
  });

  it('survives a daemon restart', async () => {
    await d.daemon.close();
    again = await startTestDaemon({ serversDir });
    const token = await again.admin();
    expect((await status(again, token, 'fresh')).installed).toBe(false);
    expect((await status(again, token, 'failing')).installed).toBe(false);
    expect((await status(again, token, 'done')).installed).toBe(true);
  });
});
