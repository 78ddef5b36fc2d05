/**
 * The outbox routes on a real daemon (docs/activity.md § Node events): a game that crashes on start is recorded
 * with its exit code and console lines, the panel's token pulls and acknowledges it, and bad queries and
 * acknowledgements get catalogued refusals (the token ladder is in permissions.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAEMON_TOKEN_PANEL_SUBJECT, type NodeEventsPage } from '@hearth/contract';
import { waitFor } from '../helpers/poll';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from '../helpers/test-daemon';

const id = 'outbox1';

describe('node outbox routes', () => {
  let d: TestDaemon;
  let panel: string;
  const page = async (query = '') => {
    const res = await d.request('GET', `/daemon/events${query}`, { token: panel });
    expect(res.status).toBe(200);
    return (await res.json()) as NodeEventsPage;
  };
  const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

  beforeAll(async () => {
    d = await startTestDaemon();
    panel = await d.token({ admin: true, sub: DAEMON_TOKEN_PANEL_SUBJECT });
    const definition = fakeGameDefinition('standard', { autorecover: false });
    definition.data.flags.value = '--crash-on-start';
    const created = await d.request('PUT', `/daemon/server/${id}`, {
      token: await d.admin(),
      body: definition,
    });
    expect(created.status).toBe(200);
  });
  afterAll(async () => d?.close());

  it('records a crash with its exit code and console lines; the panel pulls and acknowledges it', async () => {
    const started = await d.request('POST', `/daemon/server/${id}/start`, { token: await d.admin(id) });
    expect(started.status).toBeLessThan(300);
    const crashed = await waitFor(async () => {
      const found = (await page()).events.find((e) => e.action === 'server.crashed');
      return found;
    }, 'the crash in the outbox');
    expect(crashed).toMatchObject({ serverId: id, actor: { type: 'system' }, details: { exitCode: 3 } });
    expect((crashed.details.lines as string[]).join('\n')).toContain('fake-game: crashing on start');

    const before = await page();
    const ack = await d.request('POST', '/daemon/events/ack', {
      token: panel,
      body: { outbox: before.outbox, seq: before.last },
    });
    expect(ack.status).toBe(204);
    const after = await page();
    expect(after.events).toEqual([]);
    expect(after.last).toBe(before.last);
    expect(after.outbox).toBe(before.outbox);
  });

  it('takes the alert watches from the panel and answers their version in every page', async () => {
    expect((await page()).watches).toBeNull();
    const watches = {
      version: 'v-test-1',
      all: [{ rule: 'r1', condition: { type: 'cpuAbove', threshold: 90, minutes: 5 } }],
      servers: { [id]: [{ rule: 'r2', condition: { type: 'consoleMatch', pattern: 'x', mode: 'literal' } }] },
    };
    const put = await d.request('PUT', '/daemon/alert-watches', { token: panel, body: watches });
    expect(put.status).toBe(204);
    expect((await page()).watches).toBe('v-test-1');
    // A condition the node does not evaluate, and a malformed list, are refused with catalogued codes.
    for (const body of [
      { ...watches, all: [{ rule: 'r3', condition: { type: 'crash' } }] },
      { ...watches, all: [{ rule: 'r3', condition: { type: 'cpuAbove', threshold: 0, minutes: 5 } }] },
      { version: 'v2', all: [] },
    ]) {
      const res = await d.request('PUT', '/daemon/alert-watches', { token: panel, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await codeOf(res)).toMatch(/^Err/);
    }
    expect((await page()).watches).toBe('v-test-1');
  });

  it('refuses bad queries and acknowledgements with catalogued codes', async () => {
    for (const query of ['?after=-1', '?limit=0', '?limit=501', '?after=x', '?other=1']) {
      const res = await d.request('GET', `/daemon/events${query}`, { token: panel });
      expect(res.status, query).toBe(400);
      expect(await codeOf(res), query).toMatch(/^Err/);
    }
    const { outbox, last } = await page();
    const refusals: Array<[unknown, string]> = [
      [{ outbox: 'another-outbox', seq: 0 }, 'outbox'],
      [{ outbox, seq: last + 1 }, 'seq'],
    ];
    for (const [body, field] of refusals) {
      const res = await d.request('POST', '/daemon/events/ack', { token: panel, body });
      expect(res.status).toBe(400);
      const error = ((await res.json()) as { error: { code: string; metadata?: { field?: string } } }).error;
      expect(error).toMatchObject({ code: 'ErrFieldInvalid', metadata: { field } });
    }
    const missing = await d.request('POST', '/daemon/events/ack', { token: panel, body: { seq: 1 } });
    expect(missing.status).toBe(400);
    expect(await codeOf(missing)).toMatch(/^Err/);
  });
});
