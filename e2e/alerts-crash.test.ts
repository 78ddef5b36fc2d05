/**
 * A real crash becomes a real alert (docs/alerts.md): a real panel and daemon, the fake game killed with
 * SIGKILL, the crash reaching the panel through the node outbox (docs/activity.md § Node events), and the
 * webhook received by a receiver in its own process that verifies the HMAC signature and the timestamp. The
 * event carries the exit (signal or 137) and the last console lines.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertEvent, AlertRuleCreated } from '@hearth/contract';
import { call } from '../apps/panel/test/helpers/app';
import { startReceiver, type Receiver } from '../apps/panel/test/alerts/receiver-process';
import { filesFixture, type FilesFixture } from './helpers/files-fixture';

const SECRET = 'e2e-alerts-shared-secret-0123456789';

/** Polls `check` until it answers something, for up to `ms` (a loaded CI machine is slow, never wrong). */
async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  ms = 120_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('a crash alert', () => {
  let f: FilesFixture;
  let receiver: Receiver;

  /** The fake game's process of this server, as this machine sees it. */
  const gamePid = () =>
    waitFor('the game running', () => {
      for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
        try {
          const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
          if (!argv[0]?.endsWith('node') || !argv.some((a) => a.endsWith('fake-game.mjs'))) continue;
          if (readlinkSync(`/proc/${name}/cwd`) !== f.serverRoot) continue;
          return Number(name);
        } catch {
          continue; // the process ended while we looked
        }
      }
      return undefined;
    });

  beforeAll(async () => {
    f = await filesFixture('sqlite');
    receiver = await startReceiver(SECRET);
    // The receiver is on loopback: the admin setting allows private targets for global rules.
    await f.t.services.settings.write({ 'panel.alerts.allowPrivateTargets': true });
  });
  afterAll(async () => {
    receiver?.stop();
    await f?.close();
  });

  it('kill -9 of the game sends a signed webhook with the exit and the last console lines', async () => {
    const created = await call(f.t, 'POST', '/api/alerts', {
      token: f.admin.token,
      body: {
        name: 'crashes',
        condition: { type: 'crash' },
        channel: { kind: 'webhook', url: `${receiver.url}/ok`, format: 'json', secret: SECRET },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const rule = created.json<AlertRuleCreated>();
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
    process.kill(await gamePid(), 'SIGKILL');
    const got = await waitFor('the webhook', () => receiver.received.find((r) => r.path === '/ok'));
    expect(got.valid).toBe(true);
    const event = JSON.parse(got.body) as AlertEvent;
    expect(event).toMatchObject({ type: 'crash', serverId: f.serverId, rule: { id: rule.id } });
    const { signal, exitCode, lines } = event.details as {
      signal?: string;
      exitCode?: number;
      lines?: string[];
    };
    expect(signal === 'SIGKILL' || exitCode === 137, JSON.stringify(event.details)).toBe(true);
    expect((lines ?? []).join('\n')).toContain('fake-game ready');
  });
});
