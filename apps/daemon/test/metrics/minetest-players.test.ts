/**
 * Player counts from the REAL Debian minetest-server (docs/daemon.md § Player counts): the bundled template, as
 * shipped, announces to the daemon's loopback server list; the daemon's stats, node summary and /metrics then
 * carry its players (0 online of the slots the template set). Announces with another server's or a made-up token
 * are refused and change nothing; a stopped server has no count.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodePlayers, StatsResponse } from '@hearth/contract';
import { waitFor } from '../helpers/poll';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon';

const PROGRAM = '/usr/lib/minetest/minetestserver';
const TEMPLATE = join(import.meta.dirname, '..', '..', '..', 'panel', 'templates', 'minetest-server');
const TOKEN = 'minetest-metrics-token';

function available(): boolean {
  if (existsSync(PROGRAM)) return true;
  const reason = `${PROGRAM} is missing (apt-get install minetest-server)`;
  if (process.env.CI === 'true') throw new Error(`CI needs the real game server: ${reason}`);
  console.warn(`skipping the Minetest player count test: ${reason}`);
  return false;
}

type Definition = { data: Record<string, { value?: unknown }> } & Record<string, unknown>;

function bundled(port: number, maxplayers: number): Definition {
  const text = readFileSync(join(TEMPLATE, 'minetest-server.json'), 'utf8');
  const template = JSON.parse(text) as Definition;
  for (const [key, value] of Object.entries({ ip: '127.0.0.1', port, maxplayers, gameid: 'devtest' })) {
    const variable = template.data[key];
    if (!variable) throw new Error(`the Minetest template has no '${key}' variable`);
    variable.value = value;
  }
  return template;
}

/** `serverlist_url` as the install wrote it into the server's minetest.conf. */
function serverListUrlOf(d: TestDaemon, id: string): string {
  const conf = readFileSync(join(d.config.serversDir ?? '', id, 'minetest.conf'), 'utf8');
  const url = /^serverlist_url = (.+)$/m.exec(conf)?.[1];
  if (!url) throw new Error(`no serverlist_url in minetest.conf:\n${conf}`);
  return url;
}

function announce(url: string, json: unknown): Promise<Response> {
  const form = new FormData();
  form.set('json', JSON.stringify(json));
  return fetch(`${url}/announce`, { method: 'POST', body: form });
}

describe.skipIf(!available())('Minetest players through the daemon’s server list', () => {
  let d: TestDaemon;
  const id = 'minetest-players';
  const port = 20000 + Math.floor(Math.random() * 20000);

  beforeAll(async () => {
    d = await startTestDaemon({
      players: { intervalMs: 200, serverListPort: 0 },
      stats: { sampleIntervalMs: 200 },
      metrics: { enabled: true, token: TOKEN },
    });
    const admin = await d.admin();
    const created = await d.request('PUT', `/daemon/server/${id}`, { token: admin, body: bundled(port, 7) });
    expect(created.status).toBe(200);
    expect((await d.request('POST', `/daemon/server/${id}/install?wait=true`, { token: admin })).status).toBe(
      204,
    );
  }, 120_000);
  afterAll(async () => d?.close());

  const stats = async () => {
    const token = await d.user(id, ['viewServerStats']);
    const res = await d.request('GET', `/daemon/server/${id}/stats`, { token });
    return (await res.json()) as StatsResponse;
  };

  it('has no count while stopped', async () => {
    expect((await stats()).players).toBeUndefined();
  });

  it('reports the real server’s players once it announced itself', async () => {
    const admin = await d.admin(id);
    expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`, { token: admin })).status).toBe(
      204,
    );
    const players = await waitFor(async () => (await stats()).players, 'a player count from Minetest', {
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    expect(players).toEqual({ online: 0, max: 7 });

    const summary = await d.request('GET', '/daemon/players', { token: await d.admin() });
    expect(((await summary.json()) as NodePlayers).servers[id]).toEqual({ online: 0, max: 7 });
    const scrape = await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const text = await scrape.text();
    expect(text).toContain(`hearth_server_players{server="${id}"} 0`);
    expect(text).toContain(`hearth_server_players_max{server="${id}"} 7`);
  });

  it('refuses announces under another token or for another server, and keeps the count', async () => {
    const url = serverListUrlOf(d, id);
    const forged = { action: 'update', port, clients: 99, clients_max: 99 };
    const wrongToken = url.replace(/\/[^/]+$/, '/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect((await announce(wrongToken, forged)).status).toBe(403);
    const otherServer = url.replace(`/${id}/`, '/another-server/');
    expect((await announce(otherServer, forged)).status).toBe(403);
    expect((await announce(url, { action: 'update', port: 'x' })).status).toBe(400);
    await new Promise((r) => setTimeout(r, 600)); // three query rounds: a forged count would have shown
    expect((await stats()).players).toEqual({ online: 0, max: 7 });
  });

  it('drops the count when the server stops', async () => {
    const admin = await d.admin(id);
    expect((await d.request('POST', `/daemon/server/${id}/stop?wait=true`, { token: admin })).status).toBe(
      204,
    );
    await waitFor(async () => (await stats()).players === undefined, 'the count to go');
  });
});
