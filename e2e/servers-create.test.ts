/**
 * Creating servers against a real daemon on every dialect (docs/api.md § Servers): a createServers-only user
 * gets a server only from a stored template, with the template's commands and the template's values for
 * admin-only variables; a raw definition from them leaves nothing on the node. Administrators still send a
 * whole definition, or set admin-only values in the template form. The rules themselves, refusal by refusal:
 * apps/panel/test/servers/create-rules.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { call, createUser, type TestApp, type TestUser } from '../apps/panel/test/helpers/app';
import { DIALECTS } from '../apps/panel/test/helpers/dialects';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { waitFor } from '../apps/daemon/test/helpers/poll';
import {
  createFakeServer,
  panelWithNode,
  stopPanelWithNode,
  type RegisteredNode,
} from './helpers/node-fixture';

interface Stored {
  run: { command: string };
  install: unknown[];
  environment: { type: string };
  data: Record<string, { value: unknown }>;
  adminEdited: boolean;
}

describe.each(DIALECTS)('creating servers on a real node, on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let node: RegisteredNode;
  let creator: TestUser;
  const template = fakeGameDefinition();

  beforeAll(async () => {
    ({ t, admin, node } = await panelWithNode(dialect, 'create-node'));
    creator = await createUser(t, { createServers: true });
    const saved = await call(t, 'PUT', '/api/templates/fake-game', { token: admin, body: template });
    expect(saved.statusCode).toBe(200);
  });
  afterAll(() => stopPanelWithNode(t, node));

  const definitions = () => readdirSync(node.serversDir).filter((name) => name.endsWith('.json'));
  const stored = (id: string) =>
    JSON.parse(readFileSync(join(node.serversDir, `${id}.json`), 'utf8')) as Stored;
  const create = (token: string, body: Record<string, unknown>) =>
    call(t, 'POST', '/api/servers', { token, body: { node: node.id, users: [], ...body } });

  it('a raw definition from a createServers-only user: 403, no row, nothing on the node', async () => {
    const before = definitions();
    const marker = join(node.serversDir, 'owned');
    const attack = {
      ...template,
      name: 'attack',
      install: [{ type: 'command', commands: [`touch ${marker}`] }],
      run: { command: `touch ${marker}` },
    };
    const res = await create(creator.token, attack);
    expect(res.statusCode).toBe(403);
    expect(res.json<ErrorBody>().error.code).toBe('ErrNoPermission');
    expect(definitions()).toEqual(before);
    expect(existsSync(marker)).toBe(false);
    const mine = (await call(t, 'GET', '/api/servers', { token: creator.token })).json<{
      paging: { total: number };
    }>();
    expect(mine.paging.total).toBe(0);
  });

  it("from a template: the template's commands and environment, the user's values, and it runs", async () => {
    const res = await create(creator.token, {
      template: 'fake-game',
      name: 'from-template',
      environment: { type: 'standard' },
      data: { flags: { value: '--quiet' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json<{ id: string }>().id;
    const definition = stored(id);
    expect(definition.run.command).toBe(template.run.command);
    expect(definition.install).toEqual(template.install);
    expect(definition.environment).toEqual({ type: 'standard' });
    expect(definition.data.flags?.value).toBe('--quiet');
    expect(definition.data.memory?.value).toBe(512); // admin-only: the template's value
    expect(definition.adminEdited).toBe(false);
    const proxy = `/proxy/daemon/server/${id}`;
    expect((await call(t, 'POST', `${proxy}/install?wait=true`, { token: creator.token })).statusCode).toBe(
      204,
    );
    expect(readFileSync(join(node.serversDir, id, 'server.properties'), 'utf8')).toBe('memory=512\n');
    expect((await call(t, 'POST', `${proxy}/start?wait=true`, { token: creator.token })).statusCode).toBe(
      204,
    );
    await waitFor(async () => {
      const status = await call(t, 'GET', `${proxy}/status`, { token: creator.token });
      return status.json<{ running: boolean }>().running;
    }, 'the server runs');
    expect((await call(t, 'POST', `${proxy}/kill`, { token: creator.token })).statusCode).toBeLessThan(300);
  });

  it('the same user cannot set an admin-only value, at creation or afterwards', async () => {
    const refused = await create(creator.token, {
      template: 'fake-game',
      name: 'locked',
      environment: { type: 'standard' },
      data: { memory: { value: 4096 } },
    });
    expect([refused.statusCode, refused.json<ErrorBody>().error.metadata]).toEqual([
      403,
      { field: 'data.memory' },
    ]);
    const made = await create(creator.token, {
      template: 'fake-game',
      name: 'later',
      environment: { type: 'standard' },
    });
    const id = made.json<{ id: string }>().id;
    const data = await call(t, 'POST', `/proxy/daemon/server/${id}/data`, {
      token: creator.token,
      body: { data: { memory: { value: 4096 } } },
    });
    expect(data.statusCode).toBe(403);
    expect(stored(id).data.memory?.value).toBe(512);
  });

  it('an administrator: a whole definition, or admin-only values in the template form', async () => {
    const whole = await createFakeServer(t, admin, node.id, 'admin-whole');
    expect(stored(whole).adminEdited).toBe(true);
    const res = await create(admin, {
      template: 'fake-game',
      name: 'admin-template',
      environment: { type: 'standard' },
      data: { memory: { value: 1024 } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(stored(res.json<{ id: string }>().id).data.memory?.value).toBe(1024);
  });
});
