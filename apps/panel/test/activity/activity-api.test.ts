/**
 * The activity log through its API on every dialect: logins recorded (the e-mail tried on a failure, never the
 * password), filters by server, user, action (exact and prefix) and time, paging, CSV and JSON exports (a
 * formula-looking value stays text), and the denials (non-admins on /api/activity; no access → 404 and a
 * missing flag → 403 on a server's activity).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry, ActivityPage, ErrorBody } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp, type TestUser } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { grant, seedServer } from '../servers/fixtures';

const code = (res: { json<T>(): T }) => res.json<ErrorBody>().error.code;

describe.each(DIALECTS)('activity API on %s', (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let plain: TestUser;
  let serverId: string;
  let other: string;
  const page = async (query: string, token = admin.token) => {
    const res = await call(t, 'GET', `/api/activity${query}`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ActivityPage>();
  };
  const user = (id: string | null) => ({ type: 'user' as const, id, label: id ?? '', ip: '203.0.113.7' });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await createUser(t, { admin: true });
    plain = await createUser(t);
    serverId = await seedServer(t);
    other = await seedServer(t);
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 25; i += 1) {
      await t.services.activity.record({
        actor: user(i % 2 === 0 ? admin.id : plain.id),
        action: i % 3 === 0 ? 'server.power.start' : 'server.console.command',
        serverId: i % 5 === 0 ? other : serverId,
        details: { command: `say ${i}` },
        time: base + i * 60_000,
      });
    }
  });
  afterAll(() => t?.close());

  it('records a failed login with the e-mail tried and no password, then a successful one', async () => {
    const wrong = await call(t, 'POST', '/auth/login', {
      body: { email: plain.email, password: 'not-it-123' },
    });
    expect(wrong.statusCode).toBe(400);
    const ok = await call(t, 'POST', '/auth/login', {
      body: { email: plain.email, password: plain.password },
    });
    expect(ok.statusCode).toBe(200);
    const failed = (await page('?action=auth.login.failed')).entries;
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ actorId: plain.id, details: { email: plain.email } });
    expect(JSON.stringify(failed[0])).not.toContain('not-it-123');
    expect(failed[0]?.ip).toBeTruthy();
    const success = (await page(`?action=auth.login.success&user=${plain.id}`)).entries;
    expect(success).toHaveLength(1);
    expect((await page('?action=auth.login.')).paging.total).toBe(2);
  });

  it('filters by server, user, action and time, newest first, in pages', async () => {
    const all = await page('?action=server.&limit=10');
    expect(all.paging).toMatchObject({ total: 25, page: 1, pageSize: 10 });
    const times = all.entries.map((e) => e.time);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const third = await page('?action=server.&limit=10&page=3');
    expect(third.entries).toHaveLength(5);
    expect((await page(`?server=${other}`)).paging.total).toBe(5);
    expect((await page(`?server=${serverId}&user=${admin.id}`)).paging.total).toBe(10);
    expect((await page('?action=server.power.start')).paging.total).toBe(9);
    const base = Date.UTC(2026, 0, 1);
    const window = await page(`?since=${base + 10 * 60_000}&until=${base + 14 * 60_000}`);
    expect(window.entries.map((e) => e.details.command)).toEqual([
      'say 14',
      'say 13',
      'say 12',
      'say 11',
      'say 10',
    ]);
    // A LIKE wildcard in the action prefix is a literal character, not a pattern.
    expect((await page('?action=%25.')).paging.total).toBe(0);
  });

  it('refuses bad queries with catalogued errors', async () => {
    expect(code(await call(t, 'GET', '/api/activity?limit=1000', { token: admin.token }))).toBe(
      'ErrFieldTooLarge',
    );
    expect(code(await call(t, 'GET', '/api/activity?page=0', { token: admin.token }))).toBe(
      'ErrFieldTooSmall',
    );
    expect((await call(t, 'GET', '/api/activity?format=xml', { token: admin.token })).statusCode).toBe(400);
    expect((await call(t, 'GET', '/api/activity?bogus=1', { token: admin.token })).statusCode).toBe(400);
  });

  it('exports CSV with formula-looking values kept as text, and JSON with every entry', async () => {
    await t.services.activity.record({
      actor: { type: 'user', id: admin.id, label: '=HYPERLINK("http://x","y")', ip: '::1' },
      action: 'server.console.command',
      serverId,
      details: { command: '+cmd, "quoted"\nline' },
    });
    const csv = await call(t, 'GET', `/api/activity?format=csv&server=${serverId}`, { token: admin.token });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe('id,time,actorType,actorId,actorLabel,ip,serverId,nodeId,action,details');
    expect(lines.length).toBe(1 + 21 + 1); // header, 20 seeded + the new one, the final empty line
    expect(csv.body).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csv.body).not.toMatch(/(^|,)=HYPERLINK/m);
    const json = await call(t, 'GET', `/api/activity?format=json&server=${serverId}`, { token: admin.token });
    const entries = json.json<ActivityEntry[]>();
    expect(entries).toHaveLength(21);
    expect(entries[0]?.details.command).toBe('+cmd, "quoted"\nline');
  });

  it('refuses /api/activity to non-admins', async () => {
    expect((await call(t, 'GET', '/api/activity')).statusCode).toBe(401);
    const viewer = await createUser(t, { viewServers: true, viewUsers: true, panelSettings: true });
    expect(code(await call(t, 'GET', '/api/activity', { token: viewer.token }))).toBe('ErrNoPermission');
    expect((await call(t, 'GET', '/api/activity?format=csv', { token: viewer.token })).statusCode).toBe(403);
  });

  it("shows a server's activity only with the flag, and only that server's entries", async () => {
    const stranger = await createUser(t);
    const consoleOnly = await createUser(t);
    const watcher = await createUser(t);
    await grant(t, consoleOnly.id, serverId, ['viewServerConsole', 'sendServerConsole']);
    await grant(t, watcher.id, serverId, ['viewServerActivity']);
    const url = `/api/servers/${serverId}/activity`;
    expect((await call(t, 'GET', url, { token: stranger.token })).statusCode).toBe(404);
    expect((await call(t, 'GET', url, { token: consoleOnly.token })).statusCode).toBe(403);
    const seen = await call(t, 'GET', `${url}?limit=200`, { token: watcher.token });
    expect(seen.statusCode).toBe(200);
    const entries = seen.json<ActivityPage>().entries;
    expect(entries.length).toBe(21);
    expect(entries.every((e) => e.serverId === serverId)).toBe(true);
    expect(
      (await call(t, 'GET', `/api/servers/${other}/activity`, { token: watcher.token })).statusCode,
    ).toBe(404);
    // `server` is not a filter here: the path names the server.
    expect((await call(t, 'GET', `${url}?server=${other}`, { token: watcher.token })).statusCode).toBe(400);
    expect((await call(t, 'GET', `${url}?format=csv`, { token: consoleOnly.token })).statusCode).toBe(403);
  });

  it('deletes only the entries past retention', async () => {
    const before = (await page('')).paging.total;
    // One day kept, counted from 1 January 00:10: the ten seeded entries before 00:10 go.
    expect(await t.services.activity.prune(1, Date.UTC(2026, 0, 2) + 10 * 60_000)).toBe(10);
    expect((await page('')).paging.total).toBe(before - 10);
    // Counted from 3 January: the rest of the seeded January entries go; today's logins and exports stay.
    const removed = await t.services.activity.prune(1, Date.UTC(2026, 0, 3));
    expect(removed).toBe(15);
    expect((await page('')).paging.total).toBe(before - 25);
    expect((await page('')).paging.total).toBeGreaterThan(0);
  });
});
