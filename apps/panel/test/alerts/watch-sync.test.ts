/**
 * The watches handed to nodes (docs/alerts.md § Where conditions are evaluated), built from the stored rules on
 * every database: global rules of watched conditions go to every node, a server's rules only to the node that
 * runs it; crash rules and disabled rules are not watched; the version follows the content, so a rule change
 * makes a new one and an unchanged set keeps it. A node that holds no watches and needs none is not called.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertRuleCreated } from '@hearth/contract';
import { AlertsRepository } from '../../src/modules/alerts/alerts.repository';
import { AlertWatchSync } from '../../src/modules/alerts/watch-sync';
import type { NodeLink } from '../../src/nodes-link/node-link';
import { call, createUser, type TestApp, type TestUser, buildTestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { seedServer } from '../servers/fixtures';

describe.each(DIALECTS)('alert watches on %s', (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let serverId: string;
  const calls: string[] = [];
  let sync: AlertWatchSync;
  let repo: AlertsRepository;
  let rules: ReturnType<AlertsRepository['list']> | null = null;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await createUser(t, { admin: true });
    serverId = await seedServer(t); // on the node 'local'
    repo = new AlertsRepository(t.db);
    const link = {
      json: async (nodeId: string) => {
        calls.push(nodeId);
        return undefined;
      },
    } as unknown as NodeLink;
    sync = new AlertWatchSync({ db: t.db, link, rules: () => (rules ??= repo.list()) });
  });
  afterAll(async () => t?.close());

  const rule = async (body: object) => {
    const res = await call(t, 'POST', '/api/alerts', { token: admin.token, body });
    expect(res.statusCode, res.body).toBe(201);
    rules = null; // as the engine's invalidate does
    return res.json<AlertRuleCreated>();
  };
  const email = { kind: 'email', to: 'ops@example.com' };

  it('a node that needs none is not called; global and server rules go to the right nodes', async () => {
    await sync.onPage('local', null);
    expect(calls).toEqual([]);
    await rule({ name: 'crash', condition: { type: 'crash' }, channel: email });
    await rule({
      name: 'off',
      enabled: false,
      condition: { type: 'diskAbove', threshold: 10, minutes: 5 },
      channel: email,
    });
    expect((await sync.watchesOf('local')).all).toEqual([]);

    const hot = await rule({
      name: 'hot',
      condition: { type: 'cpuAbove', threshold: 90, minutes: 5 },
      channel: email,
    });
    const oom = await rule({
      name: 'oom',
      serverId,
      condition: { type: 'consoleMatch', pattern: '*OutOfMemory*', mode: 'glob' },
      channel: email,
    });
    const local = await sync.watchesOf('local');
    expect(local.all).toEqual([{ rule: hot.id, condition: { type: 'cpuAbove', threshold: 90, minutes: 5 } }]);
    expect(local.servers).toEqual({
      [serverId]: [
        { rule: oom.id, condition: { type: 'consoleMatch', pattern: '*OutOfMemory*', mode: 'glob' } },
      ],
    });
    const elsewhere = await sync.watchesOf('another-node');
    expect(elsewhere.all).toEqual(local.all);
    expect(elsewhere.servers).toEqual({});

    // The version follows the content: unchanged rules keep it; the node is called only when it differs.
    rules = null;
    expect((await sync.watchesOf('local')).version).toBe(local.version);
    await sync.onPage('local', local.version);
    expect(calls).toEqual([]);
    await sync.onPage('local', null);
    await sync.onPage('another-node', 'an-old-version');
    await sync.onPage('old-daemon', undefined);
    expect(calls).toEqual(['local', 'another-node']);

    await rule({ name: 'empty', condition: { type: 'serverEmpty', minutes: 30 }, channel: email });
    expect((await sync.watchesOf('local')).version).not.toBe(local.version);
  });
});
