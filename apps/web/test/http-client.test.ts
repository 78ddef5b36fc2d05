/**
 * The web app's one HTTP client (src/api/client.ts): a 401 from a file call (raw read, upload) ends the session
 * exactly as one from a JSON call does, and every failure carries the catalogue error the same way. Calls go
 * over real HTTP to a real server standing in for the panel.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Client from '../src/api/client';
import type { ApiError } from '../src/api/errors';
import type * as LiveHttp from '../src/api/live-http';
import type * as Session from '../src/api/session';
import type * as FilesApi from '../src/features/servers/files/api';
import { installBrowserGlobals } from './helpers/browser-globals';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

let server: Server;
let answer = { status: 401, body: '{"error":{"code":"ErrTokenInvalid","msg":"The token is invalid"}}' };
const seen: Seen[] = [];

// Loaded after the globals exist: the session reads the cookie when its module loads, as in the page.
let client: typeof Client;
let session: typeof Session.session;
let filesApi: typeof FilesApi.filesApi;
let liveHttp: typeof LiveHttp.liveHttp;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  installBrowserGlobals(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  client = await import('../src/api/client');
  ({ session } = await import('../src/api/session'));
  ({ filesApi } = await import('../src/features/servers/files/api'));
  ({ liveHttp } = await import('../src/api/live-http'));
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
  answer = { status: 401, body: '{"error":{"code":"ErrTokenInvalid","msg":"The token is invalid"}}' };
  session.login('tok-123', ['servers.view']);
});

/** Everything a logout leaves behind: the session state, the cookie, the stored scopes. */
function afterwards() {
  return {
    state: session.get(),
    cookie: document.cookie,
    scopes: localStorage.getItem('scopes'),
  };
}

/** Runs one call expected to fail; returns the error and what the session looks like after it. */
async function failing(call: () => Promise<unknown>) {
  const error = (await call().then(
    () => {
      throw new Error('the call succeeded');
    },
    (err: unknown) => err,
  )) as ApiError;
  return { error, after: afterwards() };
}

const summary = (e: ApiError) => ({ status: e.status, code: e.code, msg: e.serverMessage, name: e.name });

describe('one HTTP client', () => {
  it('a JSON call answered 401 ends the session with the timed-out reason', async () => {
    expect(afterwards().cookie).toBe('hearth_session=tok-123');
    const { error, after } = await failing(() => client.api.get('/api/servers'));
    expect(summary(error)).toEqual({
      status: 401,
      code: 'ErrTokenInvalid',
      msg: 'The token is invalid',
      name: 'ApiError',
    });
    expect(after).toEqual({
      state: { token: null, scopes: [], endedBecause: 'timeout' },
      cookie: '',
      scopes: null,
    });
    expect(seen[0]?.headers.authorization).toBe('Bearer tok-123');
  });

  it('a file read, a file save and a console command answered 401 log out exactly like a JSON call', async () => {
    const json = await failing(() => client.api.get('/api/servers'));
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['read', () => filesApi.readText('s1', 'config.yml')],
      ['save', () => filesApi.saveText('s1', 'config.yml', 'motd: hi\n')],
      ['console', () => liveHttp.post('/proxy/daemon/server/s1/console', 'say hi')],
    ];
    for (const [name, call] of calls) {
      session.login('tok-123', ['servers.view']);
      seen.length = 0;
      const result = await failing(call);
      expect(summary(result.error), name).toEqual(summary(json.error));
      expect(result.after, name).toEqual(json.after);
      // The file calls went to the panel's proxy with the session's bearer token, as JSON calls do.
      expect(
        seen.map((s) => [s.url.startsWith('/proxy/daemon/server/s1/'), s.headers.authorization]),
      ).toEqual([[true, 'Bearer tok-123']]);
    }
  });

  it('other failures keep the session and carry their catalogue code the same way for every kind of call', async () => {
    answer = { status: 403, body: '{"error":{"code":"ErrNoPermission","msg":"No permission"}}' };
    const errors = [
      await failing(() => client.api.post('/api/servers', { name: 'x' })),
      await failing(() => filesApi.readBlob('s1', 'a.png')),
      await failing(() => filesApi.saveText('s1', 'a.txt', 'x')),
      await failing(() => liveHttp.post('/proxy/daemon/server/s1/console', 'say hi')),
    ];
    for (const { error, after } of errors) {
      expect(summary(error)).toEqual({
        status: 403,
        code: 'ErrNoPermission',
        msg: 'No permission',
        name: 'ApiError',
      });
      expect(after.state).toEqual({ token: 'tok-123', scopes: ['servers.view'], endedBecause: null });
      expect(after.cookie).toBe('hearth_session=tok-123');
    }
  });

  it('a body that is not the catalogue shape (a proxy page) gives a bare status, for files as for JSON', async () => {
    answer = { status: 502, body: '<html>Bad Gateway</html>' };
    const json = await failing(() => client.api.get('/api/servers'));
    const file = await failing(() => filesApi.readText('s1', 'a.txt'));
    expect(summary(json.error)).toEqual({ status: 502, code: undefined, msg: undefined, name: 'ApiError' });
    expect(summary(file.error)).toEqual(summary(json.error));
  });

  it('a success answers the body: JSON parsed, raw bytes as they are', async () => {
    answer = { status: 200, body: '{"running":true,"installing":false}' };
    await expect(client.api.get('/proxy/daemon/server/s1/status')).resolves.toEqual({
      running: true,
      installing: false,
    });
    await expect(filesApi.readText('s1', 'status.json')).resolves.toBe('{"running":true,"installing":false}');
    expect(session.get().token).toBe('tok-123');
  });
});
