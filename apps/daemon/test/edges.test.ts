/**
 * The daemon's edges against a real daemon: JSON bodies beyond the shape budget (400 before any route reads them),
 * tokens that declare a lifetime longer than the panel ever signs, and downloads to loopback written as IPv6.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAEMON_TOKEN_TTL_SECONDS, isAppError } from '@hearth/contract';
import { httpGet } from '../src/processors/http-client';
import { signDaemonToken } from './helpers/tokens';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

async function code(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

describe('daemon edges', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await startTestDaemon();
  });
  afterAll(async () => d.close());

  const putRaw = (id: string, raw: string, token?: string) =>
    fetch(`${d.url}/daemon/server/${id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: raw,
    });

  it('a body nested 4,500 levels deep is 400 ErrBodyTooComplex (without a token it is not even read: 401)', async () => {
    const deep = `{"run":${'['.repeat(4500)}${']'.repeat(4500)}}`;
    const res = await putRaw('deep', deep, await d.admin());
    expect(res.status).toBe(400);
    expect(await code(res)).toBe('ErrBodyTooComplex');
    expect(await code(await putRaw('deep', deep))).toBe('ErrDaemonTokenInvalid');
    const wide = JSON.stringify({ run: { command: 'x' }, data: new Array(100_001).fill(1) });
    expect(await code(await putRaw('wide', wide, await d.admin()))).toBe('ErrBodyTooComplex');
    expect((await d.request('GET', '/daemon/server/deep/status', { token: await d.admin() })).status).toBe(
      404,
    );
  });

  it('ordinary definitions still work, and bad JSON is still ErrInvalidJson', async () => {
    const ok = await putRaw('normal', JSON.stringify(fakeGameDefinition()), await d.admin());
    expect(ok.status).toBe(200);
    expect(await code(await putRaw('broken', '{"run":', await d.admin()))).toBe('ErrInvalidJson');
  });

  it('refuses a validly signed token that declares a lifetime longer than the panel signs', async () => {
    const decade = await signDaemonToken(d.keys.privateKey, {
      nodeId: 'test-node',
      admin: true,
      expiresIn: 10 * 365 * 24 * 3600,
    });
    const refused = await d.request('GET', '/daemon/server/normal/status', { token: decade });
    expect(refused.status).toBe(401);
    expect(await code(refused)).toBe('ErrDaemonTokenInvalid');
    const justOver = await signDaemonToken(d.keys.privateKey, {
      nodeId: 'test-node',
      admin: true,
      expiresIn: DAEMON_TOKEN_TTL_SECONDS + 10,
    });
    expect((await d.request('GET', '/daemon/server/normal/status', { token: justOver })).status).toBe(401);
    // What the panel signs (TTL) still works.
    const usual = await d.request('GET', '/daemon/server/normal/status', { token: await d.admin() });
    expect(usual.status).toBe(200);
  });
});

describe('download guard: loopback written as IPv6', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('secret'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const settings = (allowPrivateAddresses: boolean) => ({
    allowPrivateAddresses,
    maxBytes: 1024,
    timeoutMs: 2_000,
    maxRedirects: 0,
  });

  it('refuses [::127.0.0.1], [64:ff9b::7f00:1], [2002:7f00:1::] and [::ffff:127.0.0.1] with ErrDownloadRefused', async () => {
    for (const host of ['[::127.0.0.1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::]', '[::ffff:127.0.0.1]']) {
      const err = await httpGet(`http://${host}:${port}/`, settings(false)).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isAppError(err) ? err.code : err, host).toBe('ErrDownloadRefused');
    }
  });

  it('the same loopback server answers when the admin allows private addresses', async () => {
    const { response } = await httpGet(`http://127.0.0.1:${port}/`, settings(true));
    let text = '';
    for await (const chunk of response) text += String(chunk);
    expect(text).toBe('secret');
  });
});
