/**
 * Player counts through gamedig against a REAL server (docs/daemon.md § Player counts): Debian's Mumble server
 * (`mumble-server`, murmurd), whose UDP ping gamedig's `mumble` type reads, run by the real daemon under a
 * definition that declares `query: {type: "mumble", port: "port"}`. The count of the running server appears in
 * stats; a server whose query does not answer (wrong port) and a stopped one have none.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatsResponse } from '@hearth/contract';
import { waitFor } from '../helpers/poll';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon';

const MURMURD = '/usr/sbin/murmurd';

function available(): boolean {
  if (existsSync(MURMURD)) return true;
  const reason = `${MURMURD} is missing (apt-get install mumble-server)`;
  if (process.env.CI === 'true') throw new Error(`CI needs the real server: ${reason}`);
  console.warn(`skipping the gamedig player count test: ${reason}`);
  return false;
}

/** murmurd in the foreground on loopback, its database in the server's folder; `queryPort` where gamedig asks. */
function mumbleDefinition(port: number, users: number, queryPort: string | number = 'port') {
  return {
    type: 'mumble',
    display: 'Mumble (test)',
    data: {
      port: { type: 'integer', value: port, min: 1, max: 65535 },
      users: { type: 'integer', value: users, min: 1, max: 1000 },
    },
    install: [
      {
        type: 'writefile',
        target: 'murmur.ini',
        text: 'database=${rootDir}/murmur.sqlite\nhost=127.0.0.1\nport=${port}\nusers=${users}\nlogfile=\n',
      },
    ],
    run: { command: `${MURMURD} -fg -ini murmur.ini`, stopCode: 15 },
    query: { type: 'mumble', port: queryPort },
    environment: { type: 'standard' },
  };
}

describe.skipIf(!available())('players through gamedig from a real Mumble server', () => {
  let d: TestDaemon;
  const port = 20000 + Math.floor(Math.random() * 20000);

  beforeAll(async () => {
    d = await startTestDaemon({ players: { intervalMs: 200, timeoutMs: 1000, serverListPort: 0 } });
  });
  afterAll(async () => d?.close());

  async function create(id: string, definition: object): Promise<void> {
    const admin = await d.admin();
    expect((await d.request('PUT', `/daemon/server/${id}`, { token: admin, body: definition })).status).toBe(
      200,
    );
    expect((await d.request('POST', `/daemon/server/${id}/install?wait=true`, { token: admin })).status).toBe(
      204,
    );
    expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`, { token: admin })).status).toBe(
      204,
    );
  }

  const stats = async (id: string) => {
    const res = await d.request('GET', `/daemon/server/${id}/stats`, {
      token: await d.user(id, ['viewServerStats']),
    });
    return (await res.json()) as StatsResponse;
  };

  it('reports the running server’s players and slots', async () => {
    await create('mumble1', mumbleDefinition(port, 12));
    const players = await waitFor(async () => (await stats('mumble1')).players, 'a count from murmurd', {
      timeoutMs: 30_000,
    });
    expect(players).toEqual({ online: 0, max: 12 });
  });

  it('has no count where the query is not answered, nor once stopped', async () => {
    await create('mumble2', mumbleDefinition(port + 1, 5, port + 2)); // asks a port nobody answers on
    await new Promise((r) => setTimeout(r, 2_500)); // several query rounds of 1 s timeouts
    expect((await stats('mumble2')).players).toBeUndefined();
    const admin = await d.admin('mumble1');
    expect((await d.request('POST', '/daemon/server/mumble1/stop?wait=true', { token: admin })).status).toBe(
      204,
    );
    expect((await stats('mumble1')).players).toBeUndefined();
  });
});
