/**
 * Conditions a node evaluates (docs/alerts.md § Where conditions are evaluated), end to end: a real panel and
 * daemon, the fake game burning a core and printing lines, webhooks to a receiver in its own process that
 * verifies the signature. The rules reach the daemon through the outbox pull (`PUT /daemon/alert-watches`);
 * its `server.threshold.reached` and `server.console.matched` events come back through the outbox.
 * - CPU (1 % of a core: the machine may be loaded) and memory (1 MiB) above their thresholds for one minute:
 *   one alert each with the rule's threshold and the measured value, not repeated while they stay above.
 * - A live console line containing the pattern: an alert with the line; a burst of 30 more matching lines
 *   in the next minute sends nothing more until the minute is over, and the next alert counts them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage, AlertEvent, AlertRuleCreated } from '@hearth/contract';
import { call } from '../apps/panel/test/helpers/app';
import { startReceiver, type Receiver } from '../apps/panel/test/alerts/receiver-process';
import { filesFixture, type FilesFixture } from './helpers/files-fixture';

const SECRET = 'e2e-alert-watches-secret-0123456789';
const PATTERN = 'DISK-FULL-TEST';

/** Polls `check` until it answers something, for up to `ms` (a loaded CI machine is slow, never wrong). */
async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  ms = 240_000,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${await diagnosis()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

let diagnosis: () => Promise<string> = async () => '';

describe('alerts evaluated on the node', () => {
  let f: FilesFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    f = await filesFixture('sqlite');
    receiver = await startReceiver(SECRET);
    // The receiver is on loopback: the admin setting allows private targets for global rules.
    await f.t.services.settings.write({ 'panel.alerts.allowPrivateTargets': true });
    // What a timed-out wait reports: the node events recorded and the webhooks received so far.
    diagnosis = async () => {
      const log = await call(f.t, 'GET', `/api/activity?limit=200`, { token: f.admin.token });
      const entries = log.json<ActivityPage>().entries.filter((e) => e.actorType === 'system');
      const stats = await call(f.t, 'GET', `/proxy/daemon/server/${f.serverId}/stats`, {
        token: f.admin.token,
      });
      return JSON.stringify({
        stats: stats.body,
        entries: entries.map((e) => [e.action, e.details]),
        received: receiver.received.map((r) => r.path),
      }).slice(0, 4000);
    };
  });
  afterAll(async () => {
    receiver?.stop();
    await f?.close();
  });

  const rule = async (name: string, path: string, condition: object, serverId: string | null) => {
    const res = await call(f.t, 'POST', '/api/alerts', {
      token: f.admin.token,
      body: {
        name,
        serverId,
        condition,
        channel: { kind: 'webhook', url: `${receiver.url}${path}`, format: 'json', secret: SECRET },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<AlertRuleCreated>();
  };
  const say = async (line: string) => {
    const res = await call(f.t, 'POST', `/proxy/daemon/server/${f.serverId}/console`, {
      token: f.admin.token,
      body: line,
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
  };
  const events = (path: string) =>
    receiver.received
      .filter((r) => r.path === path)
      .map((r) => {
        expect(r.valid).toBe(true);
        return JSON.parse(r.body) as AlertEvent;
      });

  it('a hot CPU and matching console lines alert once each, a burst of matches is bounded', async () => {
    // 1 % of a core: the burning game is far above it even when the machine's load gives it little CPU.
    const cpu = await rule('hot', '/cpu', { type: 'cpuAbove', threshold: 1, minutes: 1 }, null);
    const memory = await rule('big', '/memory', { type: 'memoryAbove', threshold: 1, minutes: 1 }, null);
    const console = await rule(
      'disk full',
      '/console',
      { type: 'consoleMatch', pattern: PATTERN, mode: 'literal' },
      null, // a server's rule never reaches a loopback receiver; a global one may (the admin setting)
    );
    const started = await call(f.t, 'POST', `/proxy/daemon/server/${f.serverId}/start?wait=true`, {
      token: f.admin.token,
    });
    expect(started.statusCode, started.body).toBeLessThan(300);
    await waitFor('the ready line', async () => {
      const res = await call(f.t, 'GET', `/proxy/daemon/server/${f.serverId}/console`, {
        token: f.admin.token,
      });
      return res.body.includes('fake-game ready') ? true : undefined;
    });
    await say('burn 400');

    // The watches reach the node with the next outbox pull (every few seconds): say the line until it counts.
    const first = await waitFor(
      'the console alert',
      async () => {
        const got = events('/console')[0];
        if (!got) await say(`say ${PATTERN} 1`);
        return got;
      },
      120_000,
      2_000,
    );
    expect(first).toMatchObject({ type: 'consoleMatch', serverId: f.serverId, rule: { id: console.id } });
    expect(String(first.details.line)).toContain(`${PATTERN} 1`);
    const firstAt = Date.now();
    for (let i = 0; i < 30; i++) await say(`say ${PATTERN} burst ${i}`);

    const hot = await waitFor('the CPU alert', () => events('/cpu')[0]);
    expect(hot).toMatchObject({
      type: 'cpuAbove',
      serverId: f.serverId,
      rule: { id: cpu.id },
      details: { condition: 'cpuAbove', threshold: 1, minutes: 1 },
    });
    expect(Number(hot.details.value)).toBeGreaterThan(1);
    const big = await waitFor('the memory alert', () => events('/memory')[0]);
    expect(big).toMatchObject({
      type: 'memoryAbove',
      rule: { id: memory.id },
      details: { condition: 'memoryAbove', threshold: 1, minutes: 1 },
    });
    expect(Number(big.details.value)).toBeGreaterThan(1); // MiB resident

    // The node sends one console event per rule and server per minute: the burst waits, and is counted.
    await waitFor('a minute after the first console alert', () =>
      Date.now() - firstAt > 61_000 ? true : undefined,
    );
    const second = await waitFor(
      'the next console alert',
      async () => {
        const got = events('/console')[1];
        if (!got) await say(`say ${PATTERN} 2`);
        return got;
      },
      120_000,
      3_000,
    );
    expect(events('/console').length).toBe(2);
    expect(Number(second.details.suppressed)).toBeGreaterThanOrEqual(30);
    // Still above both thresholds, and reported once each (re-armed only when a sample is below).
    expect(events('/cpu')).toHaveLength(1);
    expect(events('/memory')).toHaveLength(1);

    // Both reports are in the activity log, as node events of the server.
    const log = await call(f.t, 'GET', `/api/activity?server=${f.serverId}&action=server.`, {
      token: f.admin.token,
    });
    const actions = log.json<ActivityPage>().entries.map((e) => e.action);
    expect(actions).toContain('server.threshold.reached');
    expect(actions).toContain('server.console.matched');
  }, 480_000);
});
