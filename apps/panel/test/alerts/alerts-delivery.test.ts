/**
 * Alerts delivered for real (docs/alerts.md), on every dialect: a receiver in its own process verifies the
 * HMAC signature and timestamp; e-mail goes over real SMTP to the capture process; events enter as activity
 * entries are recorded (the node outbox's crash entries, the panel's node status). Faults: a receiver answering
 * 500 is retried, a redirect to loopback is not followed, a receiver that is down or never answers fails its
 * attempt without holding up other rules' deliveries; a crash loop of 100 produces one alert and 99
 * suppressed log rows inside the rate-limit window.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AlertDelivery, AlertDeliveryList, AlertEvent, AlertRuleCreated } from '@hearth/contract';
import { call, type TestApp, type TestUser } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { buildMailTestApp } from '../helpers/mail-app';
import type { SmtpCapture } from '../helpers/mail-servers';
import { seedServer } from '../servers/fixtures';
import { startReceiver, type Receiver } from './receiver-process';

const SECRET = 'receiver-shared-secret-0123456789';
const WAIT = { timeout: 90_000, interval: 200 };

describe.each(DIALECTS)('alert delivery on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let admin: TestUser;
  let receiver: Receiver;
  let serverId: string;

  beforeAll(async () => {
    const built = await buildMailTestApp(dialect, 'Hearth');
    t = built.t;
    smtp = built.smtp;
    admin = built.admin;
    receiver = await startReceiver(SECRET);
    serverId = await seedServer(t);
    // The receiver listens on loopback: an admin allows private targets for global rules.
    await t.services.settings.write({ 'panel.alerts.allowPrivateTargets': true });
  });
  afterAll(async () => {
    receiver?.stop();
    await t?.close();
    await smtp?.close();
  });

  const rule = async (body: object) => {
    const res = await call(t, 'POST', '/api/alerts', { token: admin.token, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<AlertRuleCreated>();
  };
  const hook = (name: string, path: string, condition: object = { type: 'crash' }, format = 'json') => ({
    name,
    condition,
    channel: {
      kind: 'webhook',
      url: `${receiver.url}${path}?rule=${name}`,
      format,
      ...(format === 'json' ? { secret: SECRET } : {}),
    },
  });
  const deliveries = async (id: string): Promise<AlertDelivery[]> =>
    (
      await call(t, 'GET', `/api/alerts/${id}/deliveries?limit=200`, { token: admin.token })
    ).json<AlertDeliveryList>().deliveries;
  const seen = (name: string) =>
    receiver.received.filter((r) => r.body.includes(`"name":"${name}"`) || r.body.includes(name));
  const crash = (server: string, lines: string[] = ['boom']) =>
    t.services.activity.record({
      actor: { type: 'node', id: null, label: 'node', ip: null },
      action: 'server.crashed',
      serverId: server,
      details: { exitCode: 137, lines },
    });

  it('a crash entry reaches a real receiver, signed; the receiver verifies the HMAC', async () => {
    const r = await rule(hook(`crash-${dialect}`, '/ok'));
    await crash(serverId);
    await vi.waitFor(() => expect(seen(`crash-${dialect}`)).toHaveLength(1), WAIT);
    const got = seen(`crash-${dialect}`)[0]!;
    expect(got.valid).toBe(true);
    const event = JSON.parse(got.body) as AlertEvent;
    expect(event).toMatchObject({ type: 'crash', serverId, rule: { id: r.id }, details: { exitCode: 137 } });
    await vi.waitFor(
      async () => expect((await deliveries(r.id))[0]).toMatchObject({ status: 'delivered', attempts: 1 }),
      WAIT,
    );
    await call(t, 'DELETE', `/api/alerts/${r.id}`, { token: admin.token });
  });

  it('a crash loop of 100 sends one alert; the rest are suppressed in the log', async () => {
    const name = `loop-${dialect}`;
    const r = await rule(hook(name, '/ok'));
    const other = await seedServer(t);
    for (let i = 0; i < 100; i += 1) await crash(other);
    await vi.waitFor(async () => {
      const log = await deliveries(r.id);
      expect(log.filter((d) => d.status === 'suppressed')).toHaveLength(99);
      expect(log.filter((d) => d.status === 'delivered')).toHaveLength(1);
    }, WAIT);
    expect(seen(name)).toHaveLength(1);
    await call(t, 'DELETE', `/api/alerts/${r.id}`, { token: admin.token });
  });

  it('crashLoop fires at the count; consoleMatch checks the line a node matched; Discord and Slack formats', async () => {
    const loop = await rule(
      hook(`cl-${dialect}`, '/ok', { type: 'crashLoop', count: 3, minutes: 10 }, 'slack'),
    );
    const match = await rule(
      hook(
        `cm-${dialect}`,
        '/ok',
        { type: 'consoleMatch', pattern: '*OutOfMemory*', mode: 'glob' },
        'discord',
      ),
    );
    const s = await seedServer(t);
    // A crash's last lines are not matched any more: the node matched them live, as they were printed.
    await crash(s, ['starting', 'java.lang.OutOfMemoryError: heap']);
    await crash(s);
    const matched = (rule: string, line: string) =>
      t.services.activity.record({
        actor: { type: 'system', id: null, label: 'node', ip: null },
        action: 'server.console.matched',
        serverId: s,
        details: { rule, line },
      });
    // Another rule's report, and a line that does not match the rule as it stands, alert nobody.
    await matched(loop.id, 'java.lang.OutOfMemoryError: heap');
    await matched(match.id, 'all fine');
    await matched(match.id, 'java.lang.OutOfMemoryError: heap');
    await vi.waitFor(() => expect(seen(`cm-${dialect}`)).toHaveLength(1), WAIT);
    expect((JSON.parse(seen(`cm-${dialect}`)[0]!.body) as { content: string }).content).toContain(
      'OutOfMemoryError',
    );
    expect(seen(`cl-${dialect}`)).toHaveLength(0);
    await crash(s);
    await vi.waitFor(() => expect(seen(`cl-${dialect}`)).toHaveLength(1), WAIT);
    expect((JSON.parse(seen(`cl-${dialect}`)[0]!.body) as { text: string }).text).toContain('crash-looping');
    for (const id of [loop.id, match.id])
      await call(t, 'DELETE', `/api/alerts/${id}`, { token: admin.token });
  });

  it('a threshold report of a node alerts its rule only while the rule still asks for that threshold', async () => {
    const name = `cpu-${dialect}`;
    const r = await rule(hook(name, '/ok', { type: 'cpuAbove', threshold: 80, minutes: 5 }));
    const s = await seedServer(t);
    const reached = (threshold: number, minutes = 5) =>
      t.services.activity.record({
        actor: { type: 'system', id: null, label: 'node', ip: null },
        action: 'server.threshold.reached',
        serverId: s,
        details: { rule: r.id, condition: 'cpuAbove', threshold, minutes, value: 97.5, since: Date.now() },
      });
    await reached(50); // watched before an edit: another threshold
    await reached(80, 1);
    await reached(80);
    await vi.waitFor(() => expect(seen(name)).toHaveLength(1), WAIT);
    const event = JSON.parse(seen(name)[0]!.body) as AlertEvent;
    expect(event).toMatchObject({ type: 'cpuAbove', serverId: s, details: { threshold: 80, value: 97.5 } });
    expect(event.title).toContain('CPU above threshold');
    await call(t, 'DELETE', `/api/alerts/${r.id}`, { token: admin.token });
  });

  it('node offline goes out by e-mail through the configured provider', async () => {
    const r = await rule({
      name: `mail-${dialect}`,
      condition: { type: 'nodeOffline' },
      channel: { kind: 'email', to: 'ops@hearth.test' },
    });
    await t.services.activity.record({
      actor: { type: 'system', id: null, label: 'system', ip: null },
      action: 'node.offline',
      nodeId: 'node-x',
    });
    await vi.waitFor(
      () =>
        expect(
          smtp.mails.some((m) => m.raw.includes(`mail-${dialect}`) && m.to.includes('ops@hearth.test')),
        ).toBe(true),
      WAIT,
    );
    expect(smtp.mails.find((m) => m.raw.includes(`mail-${dialect}`))!.raw).toContain('node went offline');
    await call(t, 'DELETE', `/api/alerts/${r.id}`, { token: admin.token });
  });

  it('500 is retried, a redirect is not followed, down and slow receivers fail without blocking others', async () => {
    const fail = await rule(hook(`fail-${dialect}`, '/fail'));
    const redirect = await rule(hook(`redir-${dialect}`, '/redirect'));
    const down = await rule({
      ...hook(`down-${dialect}`, '/ok'),
      channel: { kind: 'webhook', url: 'http://127.0.0.1:9/down', format: 'json' },
    });
    const slow = await rule(hook(`slow-${dialect}`, '/slow'));
    const ok = await rule(hook(`fine-${dialect}`, '/ok'));
    for (const r of [slow, fail, redirect, down]) {
      const res = await call(t, 'POST', `/api/alerts/${r.id}/test`, { token: admin.token });
      expect(res.statusCode).toBe(202);
    }
    expect((await call(t, 'POST', `/api/alerts/${ok.id}/test`, { token: admin.token })).statusCode).toBe(202);
    // The healthy rule's test is delivered while the slow receiver still holds its request open.
    await vi.waitFor(async () => expect((await deliveries(ok.id))[0]?.status).toBe('delivered'), WAIT);
    await vi.waitFor(async () => {
      const [d] = await deliveries(fail.id);
      expect(d?.attempts).toBeGreaterThanOrEqual(2);
      expect(d?.lastError).toContain('HTTP 500');
    }, WAIT);
    await vi.waitFor(
      async () =>
        expect((await deliveries(redirect.id))[0]?.lastError).toContain('redirects are not followed'),
      WAIT,
    );
    expect(receiver.received.filter((x) => x.path === '/')).toHaveLength(0);
    await vi.waitFor(
      async () => expect((await deliveries(down.id))[0]?.lastError).toMatch(/ECONNREFUSED/),
      WAIT,
    );
    await vi.waitFor(
      async () => expect((await deliveries(slow.id))[0]?.lastError).toMatch(/no answer within/),
      WAIT,
    );
    for (const r of [fail, redirect, down, slow, ok])
      await call(t, 'DELETE', `/api/alerts/${r.id}`, { token: admin.token });
  });

  it('a webhook to a private address is refused at send time once the setting is off', async () => {
    const r = await rule(hook(`ssrf-${dialect}`, '/ok'));
    await t.services.settings.write({ 'panel.alerts.allowPrivateTargets': false });
    await call(t, 'POST', `/api/alerts/${r.id}/test`, { token: admin.token });
    await vi.waitFor(async () => expect((await deliveries(r.id))[0]?.lastError).toMatch(/refused/), WAIT);
    expect(seen(`ssrf-${dialect}`)).toHaveLength(0);
    await t.services.settings.write({ 'panel.alerts.allowPrivateTargets': true });
    await call(t, 'DELETE', `/api/alerts/${r.id}`, { token: admin.token });
  });
});
