/**
 * The daemon's /metrics and metric history against a real daemon running the fake game (docs/daemon.md § Metrics,
 * § Metric history): 404 while metrics are off, 401 without or with a wrong token (a panel token is not one), the
 * per-server series; history ranges, refusals (no token, another server, no viewServerStats, a bad range), and the
 * points surviving a daemon restart.
 */
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryResponse } from '@hearth/contract';
import { waitFor } from '../helpers/poll';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from '../helpers/test-daemon';
import { restartOnSameData } from './restart';

const TOKEN = 'metrics-secret-token-1234';
const id = 'metrics1';

async function codeOf(res: Response): Promise<string | undefined> {
  return ((await res.json()) as { error?: { code?: string } }).error?.code;
}

const scrape = (d: TestDaemon, authorization?: string) =>
  fetch(`${d.url}/metrics`, { headers: authorization ? { authorization } : {} });

describe('daemon /metrics while metrics are off (the default)', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await startTestDaemon();
  });
  afterAll(async () => d?.close());

  it('answers 404 ErrNotFound, with or without a token', async () => {
    for (const auth of [undefined, `Bearer ${TOKEN}`, `Bearer ${await d.admin()}`]) {
      const res = await scrape(d, auth);
      expect(res.status).toBe(404);
      expect(await codeOf(res)).toBe('ErrNotFound');
    }
  });
});

describe('daemon /metrics and history with metrics on', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await startTestDaemon({
      metrics: { enabled: true, token: TOKEN },
      stats: { sampleIntervalMs: 200, diskIntervalMs: 200 },
    });
    const admin = await d.admin();
    const created = await d.request('PUT', `/daemon/server/${id}`, {
      token: admin,
      body: fakeGameDefinition(),
    });
    expect(created.status).toBe(200);
    expect((await d.request('POST', `/daemon/server/${id}/install?wait=true`, { token: admin })).status).toBe(
      204,
    );
    expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`, { token: admin })).status).toBe(
      204,
    );
  });
  afterAll(async () => d?.close());

  it('refuses a scrape without a token, with a wrong one, and with a panel token (401 ErrTokenInvalid)', async () => {
    for (const auth of [undefined, 'Bearer wrong-token', `Bearer ${await d.admin()}`, TOKEN]) {
      const res = await scrape(d, auth);
      expect(res.status, String(auth)).toBe(401);
      expect(await codeOf(res)).toBe('ErrTokenInvalid');
    }
  });

  it('serves the per-server series to the token holder', async () => {
    const text = await waitFor(async () => {
      const res = await scrape(d, `Bearer ${TOKEN}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const body = await res.text();
      return /hearth_server_memory_bytes\{server="metrics1"\} [1-9]/.test(body) ? body : null;
    }, 'a memory sample of the running server');
    expect(text).toContain('hearth_server_state{server="metrics1",state="running"} 1');
    expect(text).not.toContain('hearth_server_state{server="metrics1",state="stopped"}');
    expect(text).toMatch(/hearth_server_console_lines_total\{server="metrics1"\} [1-9]/);
    expect(text).toMatch(/hearth_server_uptime_seconds\{server="metrics1"\} /);
    expect(text).toMatch(/hearth_server_disk_bytes\{server="metrics1"\} [1-9]/);
    expect(text).toContain('hearth_daemon_servers 1');
    expect(text).toContain('hearth_daemon_info{node="test-node"} 1');
    expect(text).toContain('hearth_daemon_process_resident_memory_bytes');
    // The fake game declares no query: unknown games have no player series.
    expect(text).not.toMatch(/hearth_server_players\{/);
  });

  it('answers each range with its step and number of points', async () => {
    const token = await d.user(id, ['viewServerStats']);
    const expected = { '1h': [60, 60], '24h': [60, 1440], '7d': [900, 672], '30d': [900, 2880] } as const;
    for (const [range, [step, points]] of Object.entries(expected)) {
      const res = await d.request('GET', `/daemon/server/${id}/history?range=${range}`, { token });
      expect(res.status, range).toBe(200);
      const body = (await res.json()) as HistoryResponse;
      expect(body.range).toBe(range);
      expect(body.stepSeconds).toBe(step);
      for (const column of [body.times, body.cpu, body.memory, body.disk, body.players]) {
        expect(column.length, range).toBe(points);
      }
      expect(body.times[1]! - body.times[0]!).toBe(step * 1000);
    }
    const plain = (await (await d.request('GET', `/daemon/server/${id}/history`, { token })).json()) as {
      range: string;
    };
    expect(plain.range).toBe('1h');
  });

  it('shows the running server in the newest point; unknown players stay null', async () => {
    const token = await d.user(id, ['viewServerStats']);
    const body = await waitFor(async () => {
      const res = await d.request('GET', `/daemon/server/${id}/history?range=1h`, { token });
      const h = (await res.json()) as HistoryResponse;
      return (h.memory.at(-1) ?? 0) > 0 && (h.disk.at(-1) ?? 0) > 0 ? h : null;
    }, 'a history point with memory');
    expect(body.players.every((p) => p === null)).toBe(true);
    expect(body.memory.slice(0, 50).every((m) => m === null)).toBe(true);
  });

  it('refuses history without a token, for another server, without viewServerStats, and a bad range', async () => {
    const path = `/daemon/server/${id}/history?range=1h`;
    const none = await d.request('GET', path);
    expect([none.status, await codeOf(none)]).toEqual([401, 'ErrDaemonTokenInvalid']);
    const other = await d.request('GET', path, { token: await d.user('another', ['viewServerStats']) });
    expect([other.status, await codeOf(other)]).toEqual([403, 'ErrNoPermission']);
    const lacking = await d.request('GET', path, { token: await d.user(id, ['viewServerConsole']) });
    expect([lacking.status, await codeOf(lacking)]).toEqual([403, 'ErrMissingScope']);
    const token = await d.user(id, ['viewServerStats']);
    for (const range of ['2h', '', '1H', '30d&range=1h']) {
      const res = await d.request('GET', `/daemon/server/${id}/history?range=${range}`, { token });
      expect([res.status, await codeOf(res)], range).toEqual([400, 'ErrFieldInvalid']);
    }
    const missing = await d.request('GET', '/daemon/server/nosuch/history', { token: await d.admin() });
    expect([missing.status, await codeOf(missing)]).toEqual([404, 'ErrServerNotFound']);
  });
});

describe('daemon history of a deleted server', () => {
  it('goes with the server, and a new server of the same id starts empty', async () => {
    const d = await startTestDaemon({ stats: { sampleIntervalMs: 100, diskIntervalMs: 100 } });
    try {
      const admin = await d.admin();
      const history = join(d.dataDir, 'history');
      await d.request('PUT', `/daemon/server/${id}`, { token: admin, body: fakeGameDefinition() });
      await d.request('POST', `/daemon/server/${id}/start?wait=true`, { token: admin });
      await d.request('POST', `/daemon/server/${id}/stop?wait=true`, { token: admin });
      // The minute in progress is written at the next minute or at close: close-free, ask for the live point.
      await waitFor(async () => {
        const res = await d.request('GET', `/daemon/server/${id}/history`, { token: admin });
        return ((await res.json()) as HistoryResponse).disk.at(-1) !== null;
      }, 'a history point');
      await d.daemon.close(); // writes the minute in progress
      const again = await restartOnSameData(d, { stats: { sampleIntervalMs: 100, diskIntervalMs: 100 } });
      try {
        const token = await again.admin();
        expect(readdirSync(history)).toContain(`${id}.journal`);
        expect((await again.request('DELETE', `/daemon/server/${id}`, { token })).status).toBe(204);
        await waitFor(
          () => !readdirSync(history).some((f) => f.startsWith(`${id}.`)),
          'the history files to go',
        );
        await again.request('PUT', `/daemon/server/${id}`, { token, body: fakeGameDefinition() });
        const res = await again.request('GET', `/daemon/server/${id}/history?range=24h`, { token });
        const fresh = (await res.json()) as HistoryResponse;
        expect(fresh.memory.slice(0, -1).every((m) => m === null)).toBe(true);
      } finally {
        await again.close();
      }
    } finally {
      await rm(d.dataDir, { recursive: true, force: true });
    }
  });
});

describe('daemon history across a restart', () => {
  it('keeps the points written before the restart (the server is stopped after it)', async () => {
    const first = await startTestDaemon({ stats: { sampleIntervalMs: 200, diskIntervalMs: 200 } });
    const admin = await first.admin();
    await first.request('PUT', `/daemon/server/${id}`, { token: admin, body: fakeGameDefinition() });
    await first.request('POST', `/daemon/server/${id}/start?wait=true`, { token: admin });
    const before = await waitFor(async () => {
      const res = await first.request('GET', `/daemon/server/${id}/history?range=1h`, { token: admin });
      const h = (await res.json()) as HistoryResponse;
      return (h.memory.at(-1) ?? 0) > 0 ? h : null;
    }, 'a history point with memory');
    expect(before.memory.at(-1)).toBeGreaterThan(0);

    const second = await restartOnSameData(first, { stats: { sampleIntervalMs: 200, diskIntervalMs: 200 } });
    try {
      const token = await second.user(id, ['viewServerStats']);
      const status = await (await second.request('GET', `/daemon/server/${id}/status`, { token })).json();
      expect(status).toMatchObject({ running: false });
      for (const range of ['1h', '30d'] as const) {
        const res = await second.request('GET', `/daemon/server/${id}/history?range=${range}`, { token });
        const after = (await res.json()) as HistoryResponse;
        expect(
          after.memory.some((m) => (m ?? 0) > 0),
          range,
        ).toBe(true);
      }
    } finally {
      await second.close();
    }
  });
});
