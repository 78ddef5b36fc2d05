/**
 * The websocket proxy `/proxy/daemon/socket/{id}` against a real daemon: authentication on the
 * upgrade (cookie or bearer), 404 without access, 403 without viewServerConsole, per-message permissions in
 * the panel (a console-only viewer can neither send commands nor start — PufferPanel's old bug), transparent
 * daemon-token refresh, and sockets closed when the user's permissions change or the server is deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUser, type TestApp } from '../apps/panel/test/helpers/app';
import { DIALECTS } from '../apps/panel/test/helpers/dialects';
import { waitFor } from '../apps/daemon/test/helpers/poll';
import {
  createFakeServer,
  listeningPanel,
  registerNode,
  stopPanelWithNode,
  type RegisteredNode,
} from './helpers/node-fixture';
import { openServerSocket } from './helpers/socket-client';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(DIALECTS)('daemon socket proxy on %s', (dialect) => {
  let t: TestApp;
  let url: string;
  let node: RegisteredNode;
  let admin: string;
  let serverId: string;

  beforeAll(async () => {
    // Refresh every 300 ms: each socket below lives through several daemon-token swaps.
    ({ t, url } = await listeningPanel(dialect, { linkTimeouts: { socketRefreshMs: 300 } }));
    admin = (await createUser(t, { admin: true })).token;
    node = await registerNode(t, admin, 'sock');
    serverId = await createFakeServer(t, admin, node.id, 'sock game');
    const base = `/proxy/daemon/server/${serverId}`;
    expect((await call(t, 'POST', `${base}/install?wait=true`, { token: admin })).statusCode).toBe(204);
    expect((await call(t, 'POST', `${base}/start?wait=true`, { token: admin })).statusCode).toBe(204);
  });
  afterAll(() => stopPanelWithNode(t, node));

  const grant = (email: string, flags: object) =>
    call(t, 'PUT', `/api/servers/${serverId}/user/${email}`, { token: admin, body: flags });

  it('upgrade: 401 without a token, 404 without access, 403 without console; cookie works', async () => {
    await expect(openServerSocket(url, serverId, {})).rejects.toThrow('HTTP 401');
    await expect(openServerSocket(url, serverId, bearer('not-a-session'))).rejects.toThrow('HTTP 401');
    const stranger = await createUser(t);
    await expect(openServerSocket(url, serverId, bearer(stranger.token))).rejects.toThrow('HTTP 404');
    await expect(openServerSocket(url, 'deadbeef', bearer(admin))).rejects.toThrow('HTTP 404');
    await grant(stranger.email, { viewServerStats: true });
    await expect(openServerSocket(url, serverId, bearer(stranger.token))).rejects.toThrow('HTTP 403');
    const viaCookie = await openServerSocket(url, serverId, { cookie: `hearth_session=${admin}` });
    viaCookie.send({ type: 'ping' });
    await viaCookie.pong(1);
    viaCookie.ws.close();
  });

  it('a console viewer cannot send commands or start; the owner can, across token refreshes', async () => {
    const viewer = await createUser(t);
    await grant(viewer.email, { viewServerConsole: true });
    const watching = await openServerSocket(url, serverId, bearer(viewer.token));
    watching.send({ type: 'console', command: 'echo-from-viewer' });
    watching.send({ type: 'start' });
    watching.send({ type: 'stop' });
    watching.send({ type: 'kill' });
    watching.send({ type: 'install' });
    watching.send({ type: 'stat' });
    watching.send({ type: 'file', action: 'delete', path: 'x' });
    watching.send({ type: 'Console', data: { command: 'echo-from-viewer' } });
    watching.send({ type: 'whatever' });
    watching.ws.send('not json');
    // ErrNoPermission is the panel's refusal (the daemon's would be ErrMissingScope): nothing got through.
    await waitFor(() => watching.errors().length >= 10, 'ten refusals');
    expect(watching.errors()).toEqual([
      ...Array<string>(8).fill('ErrNoPermission'),
      'ErrFieldInvalid',
      'ErrInvalidJson',
    ]);
    const owner = await openServerSocket(url, serverId, bearer(admin));
    // Outlive several 300 ms refreshes: the socket stays open and keeps answering.
    await new Promise((r) => setTimeout(r, 1_000));
    owner.send({ type: 'console', command: 'hello-from-owner' });
    await waitFor(() => watching.logs().includes('hello-from-owner'), 'the echo on the viewer socket');
    expect(watching.logs()).not.toContain('echo-from-viewer');
    owner.send({ type: 'replay', since: 0 });
    await waitFor(() => owner.logs().includes('hello-from-owner'), 'replay on the owner socket');
    expect(owner.logs()).not.toContain('echo-from-viewer');
    const status = await call(t, 'GET', `/proxy/daemon/server/${serverId}/status`, { token: admin });
    expect(status.json()).toMatchObject({ running: true });
    expect(owner.closed).toBeNull();
    expect(watching.closed).toBeNull();
    owner.ws.close();
    watching.ws.close();
  });

  it('a permission change closes that user’s sockets only; deletion closes everyone’s', async () => {
    const user = await createUser(t);
    await grant(user.email, { viewServerConsole: true });
    const mine = await openServerSocket(url, serverId, bearer(user.token));
    const owner = await openServerSocket(url, serverId, bearer(admin));
    await grant(user.email, { viewServerConsole: true, sendServerConsole: true });
    await waitFor(() => mine.closed, 'the user socket to close');
    expect(mine.closed?.code).toBe(4003);
    const again = await openServerSocket(url, serverId, bearer(user.token));
    again.send({ type: 'console', command: 'now-allowed' });
    await waitFor(() => owner.logs().includes('now-allowed'), 'the command after the change');
    await call(t, 'DELETE', `/api/servers/${serverId}/user/${user.email}`, { token: admin });
    await waitFor(() => again.closed, 'the socket to close on removal');
    await expect(openServerSocket(url, serverId, bearer(user.token))).rejects.toThrow('HTTP 404');
    expect(owner.closed).toBeNull();
    await call(t, 'POST', `/proxy/daemon/server/${serverId}/kill`, { token: admin });
    expect((await call(t, 'DELETE', `/api/servers/${serverId}`, { token: admin })).statusCode).toBe(204);
    await waitFor(() => owner.closed, 'the owner socket to close on deletion');
    expect(owner.closed?.code).toBe(4004);
  });
});
