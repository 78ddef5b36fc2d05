/**
 * Task routes through the panel proxy against a real daemon, on every dialect: the permission ladder
 * (anonymous 401 → no access 404 → without editServerData 403 → with it or admin allowed) on all five routes,
 * and the daemon's answers passed through (id on create, ErrInvalidCron, ErrTaskNotFound, 202 on run).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUser, type TestApp } from '../apps/panel/test/helpers/app';
import { DIALECTS } from '../apps/panel/test/helpers/dialects';
import {
  codeOf,
  createFakeServer,
  panelWithNode,
  stopPanelWithNode,
  type RegisteredNode,
} from './helpers/node-fixture';

describe.each(DIALECTS)('task routes through the proxy on %s', (dialect) => {
  let t: TestApp;
  let node: RegisteredNode;
  let admin: string;
  let base: string;

  beforeAll(async () => {
    ({ t, admin, node } = await panelWithNode(dialect, 'n1', { withSecret: false }));
    const serverId = await createFakeServer(t, admin, node.id, 'tasks one');
    base = `/proxy/daemon/server/${serverId}/tasks`;
  });
  afterAll(() => stopPanelWithNode(t, node));

  const task = {
    name: 'Nightly',
    cronSchedule: '0 4 * * 0,6',
    operations: [{ type: 'console', command: 'say hi' }],
  };

  it('admin: create returns an id, list, update, run (202), delete; daemon errors pass through', async () => {
    const created = await call(t, 'POST', base, { token: admin, body: task });
    expect(created.statusCode).toBe(200);
    const { id } = created.json<{ id: string }>();
    const list = await call(t, 'GET', base, { token: admin });
    expect(list.json()).toMatchObject({ tasks: { [id]: { id, ...task, lastRun: null } } });
    const manual = { ...task, cronSchedule: null, scheduled: false };
    expect((await call(t, 'PUT', `${base}/${id}`, { token: admin, body: manual })).statusCode).toBe(204);
    expect((await call(t, 'GET', base, { token: admin })).json()).toMatchObject({
      tasks: { [id]: { cronSchedule: null, nextRun: null } },
    });
    expect((await call(t, 'POST', `${base}/${id}/run`, { token: admin })).statusCode).toBe(202);
    const bad = await call(t, 'POST', base, { token: admin, body: { ...task, cronSchedule: '0 4 * * 9' } });
    expect([bad.statusCode, codeOf(bad)]).toEqual([400, 'ErrInvalidCron']);
    const missing = await call(t, 'PUT', `${base}/nope`, { token: admin, body: task });
    expect([missing.statusCode, codeOf(missing)]).toEqual([404, 'ErrTaskNotFound']);
    const smuggled = await call(t, 'DELETE', `${base}/a%2F..%2F..`, { token: admin });
    expect(smuggled.statusCode).toBe(404);
    expect((await call(t, 'DELETE', `${base}/${id}`, { token: admin })).statusCode).toBe(204);
    expect((await call(t, 'GET', base, { token: admin })).json()).toEqual({ tasks: {} });
  });

  it('permission ladder on every task route', async () => {
    const existing = (await call(t, 'POST', base, { token: admin, body: task })).json<{ id: string }>().id;
    const routes: Array<[string, string]> = [
      ['GET', base],
      ['POST', base],
      ['PUT', `${base}/${existing}`],
      ['POST', `${base}/${existing}/run`],
      ['DELETE', `${base}/${existing}`],
    ];
    const user = await createUser(t);
    const serverUrl = base.replace('/proxy/daemon/server/', '/api/servers/').replace(/\/tasks$/, '');
    const grant = (perms: Record<string, boolean>) =>
      call(t, 'PUT', `${serverUrl}/user/${user.email}`, { token: admin, body: perms });
    const hit = (method: string, url: string, token?: string) =>
      call(t, method, url, { token, ...(method === 'POST' || method === 'PUT' ? { body: task } : {}) });

    for (const [method, url] of routes)
      expect((await hit(method, url)).statusCode, `${method} ${url}`).toBe(401);
    for (const [method, url] of routes)
      expect((await hit(method, url, user.token)).statusCode, `${method} ${url}`).toBe(404);
    expect((await grant({ viewServerConsole: true, startServer: true })).statusCode).toBe(204);
    for (const [method, url] of routes) {
      expect((await hit(method, url, user.token)).statusCode, `${method} ${url}`).toBe(403);
    }
    // The task's console step needs sendServerConsole too: saving and running need every step by hand.
    expect((await grant({ editServerData: true, sendServerConsole: true })).statusCode).toBe(204);
    const expected = [200, 200, 204, 202, 204];
    for (const [index, [method, url]] of routes.entries()) {
      expect((await hit(method, url, user.token)).statusCode, `${method} ${url}`).toBe(expected[index]);
    }
  });
});
