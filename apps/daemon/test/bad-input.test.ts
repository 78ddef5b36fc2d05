/** Bad input from the issue: refused with catalogued errors, nothing written outside the server folder. */
import { existsSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './helpers/poll';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

async function code(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

describe('daemon bad input', () => {
  let d: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    d = await startTestDaemon();
    admin = await d.admin();
  });
  afterAll(async () => d.close());

  const put = (id: string, body: unknown) => d.request('PUT', `/daemon/server/${id}`, { token: admin, body });

  it('answers 404 ErrServerNotFound for an unknown id', async () => {
    const res = await d.request('GET', '/daemon/server/nope/status', { token: admin });
    expect(res.status).toBe(404);
    expect(await code(res)).toBe('ErrServerNotFound');
  });

  it('names the bad field of a malformed definition', async () => {
    const res = await put('bad1', { run: { command: 'x' }, install: [{ type: 'mkdir' }] });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; metadata: { field: string } } };
    expect(body.error.code).toBe('ErrInvalidDefinition');
    expect(body.error.metadata.field).toBe('install.0.target');
    expect((await put('bad2', { run: { command: 'x' }, environment: { type: 'vm' } })).status).toBe(400);
    expect(await code(await put('bad3', [1, 2]))).toBe('ErrInvalidDefinition');
  });

  it('refuses variables of the wrong type', async () => {
    const def = fakeGameDefinition();
    const res = await put('bad4', { ...def, data: { memory: { type: 'integer', value: 'lots' } } });
    expect(await code(res)).toBe('ErrVariableType');
    expect((await put('ok1', def)).status).toBe(200);
    const update = await d.request('POST', '/daemon/server/ok1/data', {
      token: admin,
      body: { data: { memory: { value: 'x' } } },
    });
    expect(update.status).toBe(400);
    expect(await code(update)).toBe('ErrVariableType');
  });

  it('refuses a command with unbalanced quotes', async () => {
    const res = await put('bad5', { run: { command: 'java -jar "server.jar' } });
    expect(res.status).toBe(400);
    expect(await code(res)).toBe('ErrCommandSyntax');
  });

  it('refuses processors writing outside the server folder', async () => {
    const outside = join(d.dataDir, 'outside');
    await mkdir(outside);
    const root = join(d.config.serversDir ?? '', 'esc');
    const steps = [
      { type: 'writefile', target: '../escaped.txt', text: 'x' },
      { type: 'writefile', target: '/tmp/hearth-escaped.txt', text: 'x' },
      { type: 'writefile', target: 'link/escaped.txt', text: 'x' },
      { type: 'mkdir', target: 'link/sub' },
      { type: 'move', source: 'link', target: '../moved' },
    ];
    expect((await put('esc', { run: { command: 'true' } })).status).toBe(200);
    await symlink(outside, join(root, 'link'));
    for (const step of steps) {
      await d.request('POST', '/daemon/server/esc', {
        token: admin,
        body: { run: { command: 'true' }, install: [step] },
      });
      const res = await d.request('POST', '/daemon/server/esc/install?wait=true', { token: admin });
      expect(res.status).toBe(400);
      expect(
        ((await res.json()) as { error: { metadata: { reason: string } } }).error.metadata.reason,
      ).toMatch(/not allowed/);
    }
    expect(existsSync(join(d.config.serversDir ?? '', 'escaped.txt'))).toBe(false);
    expect(existsSync('/tmp/hearth-escaped.txt')).toBe(false);
    expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
    expect(existsSync(join(outside, 'sub'))).toBe(false);
  });

  it('defines start-while-running, stop-while-stopped and kill-during-install', async () => {
    const token = await d.admin('ok1');
    expect((await d.request('POST', '/daemon/server/ok1/stop?wait=true', { token })).status).toBe(204);
    expect((await d.request('POST', '/daemon/server/ok1/kill?wait=true', { token })).status).toBe(204);
    expect((await d.request('POST', '/daemon/server/ok1/start?wait=true', { token })).status).toBe(204);
    const again = await d.request('POST', '/daemon/server/ok1/start?wait=false', { token });
    expect(again.status).toBe(409);
    expect(await code(again)).toBe('ErrServerRunning');
    expect((await d.request('POST', '/daemon/server/ok1/kill?wait=true', { token })).status).toBe(204);

    const slow = { ...fakeGameDefinition(), install: [{ type: 'command', commands: 'sleep 30' }] };
    expect((await d.request('POST', '/daemon/server/ok1', { token, body: slow })).status).toBe(204);
    expect((await d.request('POST', '/daemon/server/ok1/install?wait=false', { token })).status).toBe(202);
    const during = await d.request('POST', '/daemon/server/ok1/start', { token });
    expect(await code(during)).toBe('ErrServerInstalling');
    expect((await d.request('POST', '/daemon/server/ok1/kill?wait=true', { token })).status).toBe(204);
    await waitFor(async () => {
      const res = await d.request('GET', '/daemon/server/ok1/console', { token });
      const { logs } = (await res.json()) as { logs: string };
      return (
        /Install step 1\/1 \(command\) failed: aborted by a kill/.test(logs) && /Install failed/.test(logs)
      );
    }, 'the aborted install in the console');
    const status = await d.request('GET', '/daemon/server/ok1/status', { token });
    expect(await status.json()).toMatchObject({ running: false, installing: false });
  });

  it('parses ?wait and ?time values', async () => {
    const token = await d.admin('ok1');
    expect((await d.request('POST', '/daemon/server/ok1/stop?wait=maybe', { token })).status).toBe(400);
    const res = await d.request('GET', '/daemon/server/ok1/console?time=yesterday', { token });
    expect(await code(res)).toBe('ErrInvalidUnixTime');
  });
});
