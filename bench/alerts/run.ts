/**
 * `npm run bench:alerts`: crash → webhook received. A real panel (SQLite) and daemon in this process, the fake
 * game, and the signed-webhook receiver in its own process (apps/panel/test/alerts/receiver.mjs). Each round a
 * fresh crash rule (the per-rule rate limit would hold back a second alert within a minute: docs/alerts.md), the
 * game killed with SIGKILL, and the time from the kill to the receiver's arrival stamp. The crash reaches the
 * panel through the node outbox, which the panel drains every 5 s (docs/activity.md § Node events), so the
 * figure is dominated by that interval. p50/p99/max over BENCH_ALERTS_ROUNDS (default 20) with the load
 * average (docs/performance.md § Alerts).
 */
// Tags this process so no child outlives it, whatever way the run ends (children.ts).
import '../children';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { AlertRuleCreated } from '@hearth/contract';
import { call } from '../../apps/panel/test/helpers/app';
import { startReceiver } from '../../apps/panel/test/alerts/receiver-process';
import { filesFixture, type FilesFixture } from '../../e2e/helpers/files-fixture';
import { percentile } from '../console/stats';

const ROUNDS = Number(process.env.BENCH_ALERTS_ROUNDS ?? 20);
const SECRET = 'bench-alerts-shared-secret-0123456789';

async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function gamePid(f: FilesFixture, notPid: number): number | undefined {
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (!argv[0]?.endsWith('node') || !argv.some((a) => a.endsWith('fake-game.mjs'))) continue;
      if (readlinkSync(`/proc/${name}/cwd`) !== f.serverRoot || Number(name) === notPid) continue;
      return Number(name);
    } catch {
      continue;
    }
  }
  return undefined;
}

async function main(): Promise<void> {
  const f = await filesFixture('sqlite');
  const receiver = await startReceiver(SECRET);
  const load = loadavg()[0]!;
  try {
    await f.t.services.settings.write({ 'panel.alerts.allowPrivateTargets': true });
    const token = f.admin.token;
    const latencies: number[] = [];
    let pid = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const created = await call(f.t, 'POST', '/api/alerts', {
        token,
        body: {
          name: `bench-${round}`,
          condition: { type: 'crash' },
          channel: { kind: 'webhook', url: `${receiver.url}/ok`, format: 'json', secret: SECRET },
        },
      });
      if (created.statusCode !== 201) throw new Error(created.body);
      const rule = created.json<AlertRuleCreated>();
      // Running again (the crash policy restarts it; after repeated crashes it may hold off: start it then).
      await call(f.t, 'POST', `/proxy/daemon/server/${f.serverId}/start?wait=true`, { token });
      const next = await waitFor('the game running', () => gamePid(f, pid));
      await waitFor('the game ready', async () => {
        const res = await call(f.t, 'GET', `/proxy/daemon/server/${f.serverId}/console`, { token });
        return (res.body.match(/fake-game ready/g) ?? []).length > round ? true : undefined;
      });
      const killedAt = Date.now();
      process.kill(next, 'SIGKILL');
      pid = next;
      const got = await waitFor('the webhook', () =>
        receiver.received.find((r) => r.body.includes(`"id":"${rule.id}"`)),
      );
      if (!got.valid) throw new Error('signature not valid');
      latencies.push(got.at - killedAt);
      await call(f.t, 'DELETE', `/api/alerts/${rule.id}`, { token });
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        rounds: ROUNDS,
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
        maxMs: sorted.at(-1),
        load1m: load,
        loadAfter1m: loadavg()[0],
      }),
    );
  } finally {
    receiver.stop();
    await f.close();
  }
}

await main();
