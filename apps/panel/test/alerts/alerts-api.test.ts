/**
 * Alert rules through their API on every dialect (docs/alerts.md): create/read/change/delete, the webhook
 * secret answered once and never again, catalogued 400s for invalid rules, the SSRF refusal of private targets
 * (and the admin setting that allows them for global rules only), and the denials: non-admins on /api/alerts,
 * no access to a server → 404, access without manageServerAlerts → 403, another server's rule → 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertRule, AlertRuleCreated, AlertRuleList, ErrorBody } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp, type TestUser } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { grant, seedServer } from '../servers/fixtures';

const code = (res: { json<T>(): T }) => res.json<ErrorBody>().error.code;
const webhook = (url: string, extra: object = {}) => ({
  name: 'crash hook',
  condition: { type: 'crash' },
  channel: { kind: 'webhook', url, format: 'json', ...extra },
});

describe.each(DIALECTS)('alerts API on %s', (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let plain: TestUser;
  let manager: TestUser;
  let serverId: string;
  let other: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await createUser(t, { admin: true });
    plain = await createUser(t);
    manager = await createUser(t);
    serverId = await seedServer(t);
    other = await seedServer(t);
    await grant(t, manager.id, serverId, ['manageServerAlerts']);
    await grant(t, plain.id, serverId, ['viewServerConsole']);
  });
  afterAll(() => t?.close());

  it('creates a signed webhook rule, answers its secret once, lists, changes and deletes it', async () => {
    const created = await call(t, 'POST', '/api/alerts', {
      token: admin.token,
      body: webhook('https://hooks.example.com/hearth'),
    });
    expect(created.statusCode, created.body).toBe(201);
    const rule = created.json<AlertRuleCreated>();
    expect(rule.secret).toMatch(/^[\w-]{40,}$/);
    expect(rule.channel).toEqual({
      kind: 'webhook',
      url: 'https://hooks.example.com/hearth',
      format: 'json',
      hasSecret: true,
    });
    const read = await call(t, 'GET', `/api/alerts/${rule.id}`, { token: admin.token });
    expect(read.statusCode).toBe(200);
    expect(read.body).not.toContain(rule.secret!);
    const list = (await call(t, 'GET', '/api/alerts', { token: admin.token })).json<AlertRuleList>();
    expect(list.rules.map((r) => r.id)).toContain(rule.id);
    expect(JSON.stringify(list)).not.toContain(rule.secret!);

    const changed = await call(t, 'PUT', `/api/alerts/${rule.id}`, {
      token: admin.token,
      body: { ...webhook('https://hooks.example.com/other'), name: 'renamed', enabled: false },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<AlertRule>()).toMatchObject({
      name: 'renamed',
      enabled: false,
      channel: { hasSecret: true },
    });
    expect(changed.body).not.toContain(rule.secret!);

    expect((await call(t, 'DELETE', `/api/alerts/${rule.id}`, { token: admin.token })).statusCode).toBe(204);
    expect(code(await call(t, 'GET', `/api/alerts/${rule.id}`, { token: admin.token }))).toBe(
      'ErrAlertNotFound',
    );
  });

  it('refuses invalid rules with catalogued 400s', async () => {
    const post = (body: object) => call(t, 'POST', '/api/alerts', { token: admin.token, body });
    const bad = [
      { ...webhook('https://x.example.com'), condition: { type: 'explode' } },
      { ...webhook('https://x.example.com'), condition: { type: 'crashLoop', count: 1, minutes: 5 } },
      { ...webhook('https://x.example.com'), condition: { type: 'consoleMatch', pattern: 'x'.repeat(201) } },
      { ...webhook('https://x.example.com'), condition: { type: 'cpuAbove', threshold: 0, minutes: 5 } },
      webhook('ftp://x.example.com'),
      webhook('https://x.example.com', { secret: 'short' }),
      { ...webhook('https://x.example.com'), name: '' },
      { ...webhook('https://x.example.com'), extra: 1 },
      { name: 'm', condition: { type: 'crash' }, channel: { kind: 'email', to: 'not-an-address' } },
    ];
    for (const body of bad) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(code(res)).toMatch(/^Err/);
    }
    const nodeOnServer = await post({
      ...webhook('https://x.example.com'),
      serverId,
      condition: { type: 'nodeOffline' },
    });
    expect(code(nodeOnServer)).toBe('ErrAlertRuleInvalid');
    const discordSigned = await post(
      webhook('https://x.example.com', { format: 'discord', secret: 'a'.repeat(20) }),
    );
    expect(code(discordSigned)).toBe('ErrAlertRuleInvalid');
    expect(code(await post({ ...webhook('https://x.example.com'), serverId: 'nope' }))).toBe(
      'ErrServerNotFound',
    );
  });

  it('refuses private webhook targets unless the admin allows them, and then only for global rules', async () => {
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://[::1]/x',
      'http://10.1.2.3/x',
      'http://localhost/x',
      'http://169.254.169.254/',
    ]) {
      expect(
        code(await call(t, 'POST', '/api/alerts', { token: admin.token, body: webhook(url) })),
        url,
      ).toBe('ErrAlertTargetRefused');
    }
    const set = await call(t, 'PUT', '/api/settings/panel.alerts.allowPrivateTargets', {
      token: admin.token,
      body: { value: true },
    });
    expect(set.statusCode, set.body).toBeLessThan(300);
    const global = await call(t, 'POST', '/api/alerts', {
      token: admin.token,
      body: webhook('http://127.0.0.1:9/x'),
    });
    expect(global.statusCode, global.body).toBe(201);
    const onServer = await call(t, 'POST', `/api/servers/${serverId}/alerts`, {
      token: manager.token,
      body: webhook('http://127.0.0.1:9/x'),
    });
    expect(code(onServer)).toBe('ErrAlertTargetRefused');
    await call(t, 'PUT', '/api/settings/panel.alerts.allowPrivateTargets', {
      token: admin.token,
      body: { value: false },
    });
  });

  it("lets a server's user with manageServerAlerts manage that server's rules only", async () => {
    const created = await call(t, 'POST', `/api/servers/${serverId}/alerts`, {
      token: manager.token,
      body: {
        name: 'mail me',
        condition: { type: 'crashLoop', count: 3, minutes: 10 },
        channel: { kind: 'email', to: 'me@example.com' },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const rule = created.json<AlertRuleCreated>();
    expect(rule.serverId).toBe(serverId);
    const mine = (
      await call(t, 'GET', `/api/servers/${serverId}/alerts`, { token: manager.token })
    ).json<AlertRuleList>();
    expect(mine.rules.map((r) => r.id)).toEqual([rule.id]);
    const global = (
      await call(t, 'POST', '/api/alerts', {
        token: admin.token,
        body: webhook('https://hooks.example.com/g'),
      })
    ).json<AlertRule>();
    // A global rule is not reachable through a server's routes.
    expect(
      code(await call(t, 'GET', `/api/servers/${serverId}/alerts/${global.id}`, { token: manager.token })),
    ).toBe('ErrAlertNotFound');
    const changed = await call(t, 'PUT', `/api/servers/${serverId}/alerts/${rule.id}`, {
      token: manager.token,
      body: {
        name: 'mail me twice',
        condition: { type: 'crash' },
        channel: { kind: 'email', to: 'me@example.com' },
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const test = await call(t, 'POST', `/api/servers/${serverId}/alerts/${rule.id}/test`, {
      token: manager.token,
    });
    expect(test.statusCode).toBe(202);
    const log = await call(t, 'GET', `/api/servers/${serverId}/alerts/${rule.id}/deliveries`, {
      token: manager.token,
    });
    expect(log.statusCode).toBe(200);
    expect(
      (await call(t, 'DELETE', `/api/servers/${serverId}/alerts/${rule.id}`, { token: manager.token }))
        .statusCode,
    ).toBe(204);
  });

  it('denies: anonymous 401, non-admins 403 on /api/alerts, no access 404, no flag 403', async () => {
    const rule = (
      await call(t, 'POST', '/api/alerts', {
        token: admin.token,
        body: webhook('https://hooks.example.com/d'),
      })
    ).json<AlertRule>();
    for (const [method, url] of [
      ['GET', '/api/alerts'],
      ['POST', '/api/alerts'],
      ['GET', `/api/alerts/${rule.id}`],
      ['PUT', `/api/alerts/${rule.id}`],
      ['DELETE', `/api/alerts/${rule.id}`],
      ['POST', `/api/alerts/${rule.id}/test`],
      ['GET', `/api/alerts/${rule.id}/deliveries`],
    ] as const) {
      const body = method === 'POST' || method === 'PUT' ? webhook('https://hooks.example.com/d') : undefined;
      expect((await call(t, method, url, { body })).statusCode, url).toBe(401);
      expect(code(await call(t, method, url, { token: manager.token, body })), url).toBe('ErrNoPermission');
    }
    const serverBody = webhook('https://hooks.example.com/s');
    expect((await call(t, 'GET', `/api/servers/${serverId}/alerts`)).statusCode).toBe(401);
    expect((await call(t, 'GET', `/api/servers/${serverId}/alerts`, { token: plain.token })).statusCode).toBe(
      403,
    );
    expect(
      (await call(t, 'POST', `/api/servers/${serverId}/alerts`, { token: plain.token, body: serverBody }))
        .statusCode,
    ).toBe(403);
    expect((await call(t, 'GET', `/api/servers/${other}/alerts`, { token: manager.token })).statusCode).toBe(
      404,
    );
    expect(
      (await call(t, 'POST', `/api/servers/${other}/alerts`, { token: manager.token, body: serverBody }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(t, 'GET', `/api/servers/${serverId}/alerts/${rule.id}/deliveries`, { token: plain.token }))
        .statusCode,
    ).toBe(403);
  });
});
