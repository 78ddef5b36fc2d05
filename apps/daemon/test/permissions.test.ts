/**
 * Walks the contract's permission table (docs/permissions.md) against a real daemon: for every route and
 * every socket message, no token → 401, a token for another server → refused, a token lacking exactly a
 * needed flag → 403 ErrMissingScope, a token holding just the need → let through. Forged, expired and
 * foreign tokens fail too.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DAEMON_TOKEN_PANEL_SUBJECT,
  daemonRouteRows,
  flagsOf,
  isServerRoute,
  serverPermissions,
  socketMessageRows,
  type DaemonRouteKey,
  type DaemonRouteRow,
  type ServerPermission,
  type SocketMessageKey,
} from '@hearth/contract';
import { TestSocket, type Message } from './helpers/socket';
import { generateTestKeys, signDaemonToken } from './helpers/tokens';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

const id = 'perm1';
const OTHER = 'another-server';
/** The codes of a refusal by the guard (or of a route that does not exist). */
const REFUSALS = ['ErrDaemonTokenInvalid', 'ErrMissingScope', 'ErrNoPermission', 'ErrNotFound'];

const allBut = (flag: ServerPermission) => serverPermissions.filter((p) => p !== flag);

/** The row's path on server `server`, with its other parameters and wildcard filled in. */
function urlOf(row: DaemonRouteRow, server = id): string {
  return row.path
    .replace(':id', server)
    .replace(':taskId', 'no-such-task')
    .replace(/\*$/, row.path.includes('/file/') ? 'perm-probe.txt' : 'perm-probe.zip');
}

async function codeOf(res: Response): Promise<string | undefined> {
  const text = await res.text();
  try {
    return (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

describe('daemon permission table: HTTP routes', () => {
  let d: TestDaemon;
  let fresh = 0;
  beforeAll(async () => {
    d = await startTestDaemon();
    await d.request('PUT', `/daemon/server/${id}`, { token: await d.admin(), body: fakeGameDefinition() });
  });
  afterAll(async () => d?.close());

  const call = (row: DaemonRouteRow, token?: string, server = id) =>
    d.request(row.method, urlOf(row, server), { token, body: row.method === 'GET' ? undefined : {} });

  async function expectRefused(res: Response, status: number, code: string, label: string) {
    expect(res.status, label).toBe(status);
    expect(await codeOf(res), label).toBe(code);
  }

  async function expectAllowed(res: Response, label: string) {
    expect([401, 403], `${label} → ${res.status}`).not.toContain(res.status);
    expect(REFUSALS, label).not.toContain(await codeOf(res));
  }

  /** A token holding exactly what the row needs (and a server to use it on that it may change). */
  async function allowedCall(key: DaemonRouteKey, row: DaemonRouteRow): Promise<Response> {
    if (row.need === 'public') return call(row);
    if (row.need === 'panel')
      return call(row, await d.token({ admin: true, sub: DAEMON_TOKEN_PANEL_SUBJECT }));
    if (!isServerRoute(row)) return call(row, await d.admin());
    if (key === 'create') {
      const created = `perm-new-${++fresh}`;
      return d.request('PUT', urlOf(row, created), {
        token: await d.user(created, []),
        body: fakeGameDefinition(),
      });
    }
    if (key === 'delete') {
      const doomed = `perm-del-${++fresh}`;
      await d.request('PUT', `/daemon/server/${doomed}`, {
        token: await d.admin(),
        body: fakeGameDefinition(),
      });
      return call(row, await d.admin(doomed), doomed);
    }
    if (row.need === 'admin') return call(row, await d.admin(id));
    return call(row, await d.user(id, [...flagsOf(row.need)]));
  }

  const httpRows = daemonRouteRows().filter(([key]) => key !== 'socket');

  it('covers every row but the socket (walked below)', () => {
    expect(httpRows.length).toBe(daemonRouteRows().length - 1);
  });

  it.each(httpRows)('%s', async (key, row) => {
    const label = `${row.method} ${row.path}`;
    if (row.need === 'public') return expectAllowed(await call(row), `${label} without a token`);
    if (row.need === 'metrics') {
      // Off here (the default): not there for anyone, a node admin included. Its token ladder with metrics on:
      // test/metrics/metrics-history.test.ts.
      for (const token of [undefined, await d.admin()]) {
        await expectRefused(await call(row, token), 404, 'ErrNotFound', `${label} while metrics are off`);
      }
      return;
    }
    await expectRefused(await call(row), 401, 'ErrDaemonTokenInvalid', `${label} without a token`);

    if (row.need === 'panel') {
      // The node outbox: every server's events, so no user's token reads it, an administrator's included.
      const everyFlag = await d.user(id, [...serverPermissions]);
      await expectRefused(await call(row, everyFlag), 403, 'ErrMissingScope', `${label} not node-admin`);
      await expectRefused(await call(row, await d.admin()), 403, 'ErrNoPermission', `${label} an admin`);
      const onOneServer = await d.token({ admin: true, server: id, sub: DAEMON_TOKEN_PANEL_SUBJECT });
      await expectRefused(await call(row, onOneServer), 403, 'ErrNoPermission', `${label} one server`);
    } else if (!isServerRoute(row)) {
      const everyFlag = await d.user(id, [...serverPermissions]);
      await expectRefused(await call(row, everyFlag), 403, 'ErrMissingScope', `${label} not node-admin`);
    } else {
      const foreign = await d.user(OTHER, [...serverPermissions]);
      await expectRefused(await call(row, foreign), 403, 'ErrNoPermission', `${label} other server`);
      const foreignAdmin = await d.admin(OTHER);
      await expectRefused(
        await call(row, foreignAdmin),
        403,
        'ErrNoPermission',
        `${label} other server's admin`,
      );
      if (row.need === 'admin') {
        const everyFlag = await d.user(id, [...serverPermissions]);
        await expectRefused(await call(row, everyFlag), 403, 'ErrMissingScope', `${label} not node-admin`);
      }
      for (const flag of flagsOf(row.need)) {
        const lacking = await d.user(id, allBut(flag));
        await expectRefused(await call(row, lacking), 403, 'ErrMissingScope', `${label} without ${flag}`);
      }
    }
    await expectAllowed(await allowedCall(key, row), `${label} with its need`);
  });

  it('refuses forged, expired, foreign-node and wrong-issuer tokens', async () => {
    const other = await generateTestKeys();
    const forged = await signDaemonToken(other.privateKey, { nodeId: 'test-node', admin: true });
    const expired = await d.token({ admin: true, expiresIn: -120 });
    const foreignNode = await d.token({ admin: true, nodeId: 'other-node' });
    const wrongIssuer = await d.token({ admin: true, issuer: 'someone' });
    for (const token of [forged, expired, foreignNode, wrongIssuer, 'not-a-jwt']) {
      const res = await d.request('GET', `/daemon/server/${id}/status`, { token });
      await expectRefused(res, 401, 'ErrDaemonTokenInvalid', token.slice(0, 20));
    }
  });
});

/** A message for each socket row; file rows act on a folder the test makes first. */
const messageOf: Record<SocketMessageKey, object> = {
  start: { type: 'start' },
  stop: { type: 'stop' },
  kill: { type: 'kill' },
  restart: { type: 'restart' },
  install: { type: 'install' },
  stat: { type: 'stat' },
  status: { type: 'status' },
  replay: { type: 'replay', since: 0 },
  console: { type: 'console', command: 'say hi' },
  ping: { type: 'ping' },
  'file:get': { type: 'file', action: 'get', path: 'perm-dir' },
  'file:create': { type: 'file', data: { action: 'create', path: 'perm-dir/inner' } },
  'file:delete': { type: 'file', action: 'delete', path: 'perm-dir/inner' },
};

/** The reply a let-through message gets, when it gets one. */
const replyOf: Partial<Record<SocketMessageKey, string>> = {
  stat: 'stat',
  replay: 'console',
  ping: 'pong',
  'file:get': 'file-list',
  'file:create': 'file-list',
  'file:delete': 'file-list',
};

describe('daemon permission table: socket', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await startTestDaemon();
    await d.request('PUT', `/daemon/server/${id}`, { token: await d.admin(), body: fakeGameDefinition() });
  });
  afterAll(async () => d?.close());

  async function closed(socket: TestSocket): Promise<void> {
    if (socket.ws.readyState === WebSocket.CLOSED) return;
    const done = new Promise((resolve) => socket.ws.once('close', resolve));
    socket.close();
    await done;
  }

  /**
   * Sends `message` then a ping; everything the daemon said up to the pong — and up to the `reply` when one is
   * awaited: file work answers on a later turn than the ping, so the pong alone may come first.
   */
  async function exchange(token: string, message: object, reply?: string): Promise<Message[]> {
    const socket = await TestSocket.open(d.url, id, token);
    try {
      socket.send(message);
      socket.send({ type: 'ping' });
      const pongs = () => socket.messages.filter((m) => m.type === 'pong').length;
      const wanted = (message as { type: string }).type === 'ping' ? 2 : 1;
      await socket.waitFor(() => pongs() >= wanted, 'pong');
      if (reply) await socket.waitFor((m) => m.type === reply, reply);
      return [...socket.messages];
    } finally {
      await closed(socket);
    }
  }

  const refusalsIn = (messages: Message[]) =>
    messages.filter((m) => m.type === 'error').map((m) => m.data.error?.code ?? '');

  it('opening: no token → 401, another server’s token → 403, any access to this one → open', async () => {
    const row = daemonRouteRows().find(([key]) => key === 'socket')?.[1];
    expect(row?.need).toBe('view');
    const bare = new WebSocket(`${d.url.replace('http', 'ws')}/daemon/socket/${id}`);
    const status = await new Promise<number>((resolve, reject) => {
      bare.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      bare.once('open', () => reject(new Error('opened without a token')));
      bare.once('error', reject);
    });
    expect(status).toBe(401);
    await expect(TestSocket.open(d.url, id, await d.user(OTHER, [...serverPermissions]))).rejects.toThrow(
      'HTTP 403',
    );
    await expect(TestSocket.open(d.url, id, await d.admin(OTHER))).rejects.toThrow('HTTP 403');
    await closed(await TestSocket.open(d.url, id, await d.user(id, [])));
  });

  it.each(socketMessageRows())('%s', async (key, row) => {
    const message = messageOf[key];
    for (const flag of flagsOf(row.need)) {
      const refused = refusalsIn(await exchange(await d.user(id, allBut(flag)), message));
      expect(refused, `${key} without ${flag}`).toEqual(['ErrMissingScope']);
    }
    if (row.type === 'file') {
      const admin = await d.admin();
      await d.request('PUT', `/daemon/server/${id}/file/perm-dir/inner?folder=true`, { token: admin });
    }
    const replies = await exchange(await d.user(id, [...flagsOf(row.need)]), message, replyOf[key]);
    const refused = refusalsIn(replies).filter((code) => REFUSALS.includes(code));
    expect(refused, `${key} with its need`).toEqual([]);
    const reply = replyOf[key];
    if (reply) {
      const answer = replies.find((m) => m.type === reply);
      expect(answer, `${key} answered with ${reply}`).toBeDefined();
      if (reply === 'file-list') expect(answer?.data.error, key).toBeUndefined();
    }
  });

  it('a socket without viewServerConsole receives no console output', async () => {
    const filesOnly = await TestSocket.open(d.url, id, await d.user(id, ['viewServerFiles']));
    const admin = await TestSocket.open(d.url, id, await d.admin());
    try {
      // Installing (or being refused it while running) writes daemon lines to the console.
      admin.send({ type: 'install' });
      await admin.waitForConsole(/Install finished|refused/);
      filesOnly.send({ type: 'ping' });
      await filesOnly.waitFor((m) => m.type === 'pong', 'pong');
      expect(filesOnly.messages.filter((m) => m.type === 'console')).toEqual([]);
    } finally {
      await closed(filesOnly);
      await closed(admin);
    }
  });
});
