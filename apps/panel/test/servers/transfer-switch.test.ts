/**
 * A transfer's switch (docs/operations.md § Moving a server between nodes): the server's row names the new node
 * only if it still names the old one, and the hot-path access check sees the new node on the very next read —
 * the proxy and the sockets' reconnect must never reach the old node after the switch. On every dialect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { seedServer } from './fixtures';

describe.each(DIALECTS)('transfer switch on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('moves the row once, from the named node only, and the cached node of the server follows at once', async () => {
    const admin = await createUser(t, { admin: true });
    const body = { name: 'target', publicHost: '127.0.0.9', publicPort: 1, privateHost: '127.0.0.9' };
    const created = await call(t, 'POST', '/api/nodes', {
      token: admin.token,
      body: { ...body, privatePort: 1, sftpPort: 2 },
    });
    const target = created.json<{ id: string }>().id;
    const id = await seedServer(t);
    const repo = t.services.serversRepo;
    for (let i = 0; i < 3; i++) expect(await repo.nodeOf(id)).toBe('local');
    expect(await repo.moveNode(id, 'local', target)).toBe(true);
    expect(await repo.nodeOf(id)).toBe(target);
    // A second switch from the old node finds the row elsewhere and changes nothing.
    expect(await repo.moveNode(id, 'local', target)).toBe(false);
    expect(await repo.moveNode(id, 'local', 'local')).toBe(false);
    expect(await repo.nodeOf(id)).toBe(target);
    const view = await call(t, 'GET', `/api/servers/${id}`, { token: admin.token });
    expect(view.json()).toMatchObject({ server: { node: { id: target, name: 'target' } } });
    expect(await repo.moveNode('no-such', target, 'local')).toBe(false);
  });
});
