/**
 * Two real daemons on 127.0.0.1 and 127.0.0.2, registered as two nodes from their deployment configs, with
 * servers on both. One stops: lists still load and report it, its servers are `unknown`, the other
 * node keeps working. Plus the link's attacks and failure modes: a token for node A replayed on node B, a
 * forged token, a node that accepts and never answers (ErrNodeTimeout), and Docker bindings from a non-admin.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair, SignJWT } from 'jose';
import { daemonTokenAudience, DAEMON_TOKEN_ANY_SERVER } from '@hearth/contract';
import { call, createUser, type TestApp } from '../apps/panel/test/helpers/app';
import { DIALECTS } from '../apps/panel/test/helpers/dialects';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { waitFor } from '../apps/daemon/test/helpers/poll';
import {
  codeOf,
  createFakeServer,
  listeningPanel,
  registerNode,
  type RegisteredNode,
} from './helpers/node-fixture';
import { daemonRequest } from './helpers/daemon-direct';

interface ListView {
  servers: Array<{ id: string; name: string; status?: string; node: { id: string; status?: string } }>;
}

/** A "node" that accepts connections and never answers. */
function silentNode(): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((s) => sockets.push(s));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, sockets, port: typeof address === 'object' && address ? address.port : 0 });
    }),
  );
}

describe.each(DIALECTS)('two nodes on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let a: RegisteredNode;
  let b: RegisteredNode;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({ t } = await listeningPanel(dialect, { linkTimeouts: { responseMs: 1_000 } }));
    admin = (await createUser(t, { admin: true })).token;
    a = await registerNode(t, admin, 'node-a', '127.0.0.1');
    b = await registerNode(t, admin, 'node-b', '127.0.0.2');
    for (const [name, node] of [
      ['on-a', a],
      ['on-b', b],
    ] as const) {
      ids[name] = await createFakeServer(t, admin, node.id, name);
    }
  });
  afterAll(async () => {
    await a?.daemon.close();
    await b?.daemon.close();
    await t?.close();
  });

  const list = async () => (await call(t, 'GET', '/api/servers', { token: admin })).json<ListView>();

  it('both nodes online, each server on its node, features per node', async () => {
    // A node never probed shows `unknown` until its first answer (lists never wait on a slow node).
    await waitFor(async () => {
      const nodes = (await call(t, 'GET', '/api/nodes', { token: admin })).json<
        Array<{ id: string; status: string }>
      >();
      return nodes.filter((n) => [a.id, b.id].includes(n.id)).every((n) => n.status === 'online');
    }, 'both nodes online');
    const view = await list();
    expect(view.servers.map((s) => [s.id, s.node.id, s.status])).toEqual([
      [ids['on-a'], a.id, undefined],
      [ids['on-b'], b.id, undefined],
    ]);
    const features = await call(t, 'GET', `/api/nodes/${b.id}/features`, { token: admin });
    expect(features.json<{ environments: string[] }>().environments).toContain('standard');
    const viewer = await createUser(t);
    expect((await call(t, 'GET', `/api/nodes/${b.id}/features`)).statusCode).toBe(401);
    expect((await call(t, 'GET', `/api/nodes/${b.id}/features`, { token: viewer.token })).statusCode).toBe(
      403,
    );
    expect((await call(t, 'GET', '/api/nodes/nope/features', { token: admin })).statusCode).toBe(404);
  });

  it('a token for node A is refused by node B; a forged token too', async () => {
    const grant = { sub: 'x', server: DAEMON_TOKEN_ANY_SERVER, perms: [], admin: true };
    const forA = await t.services.link.token(a.id, grant);
    // Straight to node B's daemon over its pinned HTTPS link, with tokens the panel would never send there.
    const toB = (token: string) =>
      daemonRequest(t, b.id, 'GET', `/daemon/server/${ids['on-b']}/status`, token);
    expect((await toB(forA)).status).toBe(401);
    expect((await toB(await t.services.link.token(b.id, grant))).status).toBe(200);
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ server: '*', perms: [], admin: true })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer('hearth-panel')
      .setAudience(daemonTokenAudience(b.id))
      .setSubject('x')
      .setIssuedAt()
      .setExpirationTime('1m')
      .sign(privateKey);
    const refused = await toB(forged);
    expect(refused.status).toBe(401);
    expect((JSON.parse(refused.text) as { error: { code: string } }).error.code).toBe(
      'ErrDaemonTokenInvalid',
    );
  });

  it('a non-admin creator: bindings refused, the definition is not admin-edited', async () => {
    const creator = await createUser(t, { createServers: true });
    const base = { ...fakeGameDefinition(), node: a.id, users: [] };
    // Non-admins create from a stored template (docs/api.md § Servers), choosing the environment by type only.
    const saved = await call(t, 'PUT', '/api/templates/fake-game', {
      token: admin,
      body: fakeGameDefinition(),
    });
    expect(saved.statusCode).toBe(200);
    const fromTemplate = { template: 'fake-game', node: a.id, users: [] };
    const withBindings = {
      ...fromTemplate,
      name: 'sneaky',
      environment: { type: 'standard', bindings: { '/etc': '/host-etc' } },
    };
    const refused = await call(t, 'POST', '/api/servers', { token: creator.token, body: withBindings });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      error: { code: 'ErrNoPermission', metadata: { field: 'environment.bindings' } },
    });
    const made = await call(t, 'POST', '/api/servers', {
      token: creator.token,
      body: { ...fromTemplate, name: 'plain', environment: { type: 'standard' } },
    });
    expect(made.statusCode).toBe(200);
    const id = made.json<{ id: string }>().id;
    const stored = JSON.parse(readFileSync(join(a.serversDir, `${id}.json`), 'utf8')) as {
      adminEdited: boolean;
    };
    expect(stored.adminEdited).toBe(false);
    const adminMade = JSON.parse(readFileSync(join(a.serversDir, `${ids['on-a']}.json`), 'utf8')) as {
      adminEdited: boolean;
    };
    expect(adminMade.adminEdited).toBe(true);
    // The creator got every flag on their server, yet the daemon still refuses them a definition write.
    const write = await call(t, 'POST', `/proxy/daemon/server/${id}`, { token: creator.token, body: base });
    expect(write.statusCode).toBe(403);
  });

  it('a node that accepts and never answers: ErrNodeTimeout, lists still load', async () => {
    const silent = await silentNode();
    const node = { name: 'silent', publicHost: '127.0.0.1', publicPort: silent.port };
    const id = (
      await call(t, 'POST', '/api/nodes', {
        token: admin,
        body: { ...node, privateHost: '127.0.0.1', privatePort: silent.port, sftpPort: 1 },
      })
    ).json<{ id: string }>().id;
    const features = await call(t, 'GET', `/api/nodes/${id}/features`, { token: admin });
    expect(codeOf(features)).toBe('ErrNodeTimeout');
    expect(features.statusCode).toBe(504);
    const body = { ...fakeGameDefinition(), name: 'never', node: id, users: [] };
    expect(codeOf(await call(t, 'POST', '/api/servers', { token: admin, body }))).toBe('ErrNodeTimeout');
    // The panel removed the server's row again when its node did not answer.
    expect((await list()).servers.map((s) => s.name)).not.toContain('never');
    expect((await call(t, 'GET', '/api/nodes', { token: admin })).statusCode).toBe(200);
    for (const s of silent.sockets) s.destroy();
    silent.server.close();
    await call(t, 'DELETE', `/api/nodes/${id}`, { token: admin });
  });

  it('node B stops: the panel stays usable and reports it', async () => {
    await b.daemon.close();
    const view = await waitFor(async () => {
      const v = await list();
      return v.servers.find((s) => s.id === ids['on-b'])?.node.status === 'offline' ? v : null;
    }, 'node B reported offline');
    expect(view.servers.find((s) => s.id === ids['on-b'])?.status).toBe('unknown');
    expect(view.servers.find((s) => s.id === ids['on-a'])).toMatchObject({ node: { status: 'online' } });
    const onB = await call(t, 'POST', `/proxy/daemon/server/${ids['on-b']}/start`, { token: admin });
    expect(codeOf(onB)).toBe('ErrNodeOffline');
    const onA = await call(t, 'GET', `/proxy/daemon/server/${ids['on-a']}/status`, { token: admin });
    expect(onA.json()).toMatchObject({ running: false });
    const nodes = (await call(t, 'GET', '/api/nodes', { token: admin })).json<
      Array<{ id: string; status: string }>
    >();
    expect(nodes.find((n) => n.id === b.id)?.status).toBe('offline');
    expect(codeOf(await call(t, 'GET', `/api/nodes/${b.id}/features`, { token: admin }))).toBe(
      'ErrNodeOffline',
    );
  });
});
