import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';

const body = (over: Record<string, unknown> = {}) => ({
  name: 'eu-1',
  publicHost: 'eu1.example.com',
  publicPort: 8080,
  privateHost: '10.0.0.5',
  privatePort: 8080,
  sftpPort: 5657,
  ...over,
});

describe.each(DIALECTS)('nodes API on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let viewer: string;
  let deployer: string;
  let nobody: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = (await createUser(t, { admin: true })).token;
    viewer = (await createUser(t, { viewNodes: true })).token;
    deployer = (await createUser(t, { deployNodes: true })).token;
    nobody = (await createUser(t)).token;
  });
  afterAll(() => t?.close());

  it('the local node exists from the first start and cannot be deleted', async () => {
    const res = await call(t, 'GET', '/api/nodes', { token: viewer });
    expect(res.statusCode).toBe(200);
    const local = res.json<Array<{ id: string; isLocal: boolean; privatePort: number }>>();
    expect(local).toEqual([expect.objectContaining({ id: 'local', isLocal: true, privatePort: 5656 })]);
    const del = await call(t, 'DELETE', '/api/nodes/local', { token: admin });
    expect(del.json<{ error: { code: string } }>().error.code).toBe('ErrNodeIsLocal');
  });

  it('create: 401 → 403 → 400 → happy → visible', async () => {
    expect((await call(t, 'POST', '/api/nodes', { body: body() })).statusCode).toBe(401);
    expect((await call(t, 'POST', '/api/nodes', { token: viewer, body: body() })).statusCode).toBe(403);
    const cases: Array<[Record<string, unknown>, string, Record<string, unknown>]> = [
      [{ publicHost: 'not a host!' }, 'ErrFieldIsInvalidHost', { field: 'publicHost' }],
      [{ privatePort: 70000 }, 'ErrFieldNotBetween', { field: 'privatePort', min: 1, max: 65535 }],
      [{ sftpPort: 8080 }, 'ErrFieldEqual', { field: 'sftpPort', other: 'publicPort' }],
      [{ name: 'a/b' }, 'ErrFieldHasURICharacters', { field: 'name' }],
      [{ name: '' }, 'ErrFieldRequired', { field: 'name' }],
      [{ publicPort: '8080' }, 'ErrFieldInvalid', { field: 'publicPort' }],
    ];
    for (const [over, code, metadata] of cases) {
      const res = await call(t, 'POST', '/api/nodes', { token: admin, body: body(over) });
      expect(res.statusCode, code).toBe(400);
      expect(res.json<{ error: object }>().error).toMatchObject({ code, metadata });
    }
    const res = await call(t, 'POST', '/api/nodes', { token: admin, body: body() });
    expect(res.statusCode).toBe(200);
    const node = res.json<{ id: string }>();
    expect(node).toMatchObject({ ...body(), isLocal: false });
    const got = await call(t, 'GET', `/api/nodes/${node.id}`, { token: viewer });
    expect(got.json()).toMatchObject(body());
    const dup = await call(t, 'POST', '/api/nodes', { token: admin, body: body({ publicPort: 9000 }) });
    expect(dup.statusCode).toBe(409);
    expect(dup.json<{ error: { code: string } }>().error.code).toBe('ErrDuplicateNodeName');
  });

  it('update is partial and keeps the rules; unknown id → 404', async () => {
    const node = (await call(t, 'POST', '/api/nodes', { token: admin, body: body({ name: 'eu-2' }) })).json<{
      id: string;
    }>();
    const url = `/api/nodes/${node.id}`;
    expect((await call(t, 'PUT', url, { token: viewer, body: { publicPort: 81 } })).statusCode).toBe(403);
    expect((await call(t, 'PUT', url, { token: admin, body: { sftpPort: 8080 } })).statusCode).toBe(400);
    expect((await call(t, 'PUT', url, { token: admin, body: { name: 'eu-1' } })).statusCode).toBe(409);
    expect((await call(t, 'PUT', url, { token: admin, body: { publicPort: 81 } })).statusCode).toBe(204);
    expect((await call(t, 'GET', url, { token: admin })).json()).toMatchObject({
      publicPort: 81,
      name: 'eu-2',
    });
    expect((await call(t, 'PUT', '/api/nodes/nope', { token: admin, body: {} })).statusCode).toBe(404);
  });

  it('deployment: GET changes nothing and shows no secret; create and rotate issue one', async () => {
    const created = await call(t, 'POST', '/api/nodes', { token: admin, body: body({ name: 'eu-3' }) });
    const node = created.json<{ id: string; deployment: { clientSecret: string; clientId: string } }>();
    expect(node.deployment.clientSecret).toMatch(/.{20,}/);
    // The file itself carries the secret (the daemon's SFTP reads it at `sftp.clientSecret`).
    expect(node.deployment).toMatchObject({
      config: { sftp: { clientSecret: node.deployment.clientSecret } },
    });
    const url = `/api/nodes/${node.id}/deployment`;
    expect((await call(t, 'GET', url)).statusCode).toBe(401);
    expect((await call(t, 'GET', url, { token: viewer })).statusCode).toBe(403);
    expect((await call(t, 'GET', '/api/nodes/nope/deployment', { token: deployer })).statusCode).toBe(404);
    const first = await call(t, 'GET', url, { token: deployer });
    expect(first.statusCode).toBe(200);
    const dep = first.json<{ config: object; publicKey: string; clientSecret?: string; clientId: string }>();
    expect(dep.publicKey).toContain('BEGIN PUBLIC KEY');
    expect(dep.clientSecret).toBeUndefined();
    expect(dep.config).toMatchObject({ sftp: { port: 5657 } });
    expect(dep.config).not.toHaveProperty('sftp.clientSecret');
    expect(dep.clientId).toBe(node.deployment.clientId);
    // The daemon's own schema accepts this file: proven in e2e/nodes (panel tests may not import the daemon).
    expect(dep.config).toMatchObject({ nodeId: node.id, port: 8080, publicKeyPem: dep.publicKey });
    expect(dep.config).toHaveProperty('panelUrl', expect.stringMatching(/^http/));
    const hash = async () => (await t.services.nodesRepo.findById(node.id))?.secret_hash;
    const before = await hash();
    await call(t, 'GET', url, { token: deployer });
    expect(await hash()).toBe(before);
    const rotate = `${url}/rotate`;
    expect((await call(t, 'POST', rotate)).statusCode).toBe(401);
    expect((await call(t, 'POST', rotate, { token: viewer })).statusCode).toBe(403);
    expect((await call(t, 'POST', '/api/nodes/nope/deployment/rotate', { token: deployer })).statusCode).toBe(
      404,
    );
    const rotated = (await call(t, 'POST', rotate, { token: deployer })).json<{ clientSecret: string }>();
    expect(rotated.clientSecret).not.toBe(node.deployment.clientSecret);
    expect(rotated).toMatchObject({ config: { sftp: { port: 5657, clientSecret: rotated.clientSecret } } });
    expect(await hash()).not.toBe(before);
  });

  it('choices: creators without viewNodes pick a node by name (no addresses); others are refused', async () => {
    const creator = (await createUser(t, { createServers: true })).token;
    expect((await call(t, 'GET', '/api/nodes', { token: creator })).statusCode).toBe(403);
    expect((await call(t, 'GET', '/api/nodes/choices')).statusCode).toBe(401);
    expect((await call(t, 'GET', '/api/nodes/choices', { token: viewer })).statusCode).toBe(403);
    const res = await call(t, 'GET', '/api/nodes/choices', { token: creator });
    expect(res.statusCode).toBe(200);
    const choices = res.json<Array<Record<string, unknown>>>();
    const all = (await call(t, 'GET', '/api/nodes', { token: admin })).json<Array<{ id: string }>>();
    expect(choices.map((c) => c.id)).toEqual(all.map((n) => n.id));
    for (const choice of choices) {
      expect(Object.keys(choice).sort()).toEqual(['id', 'name', 'status']); // no daemon answers here
      expect(['online', 'offline', 'unknown']).toContain(choice.status);
    }
  });

  it('delete: refused while the node has servers, then gone', async () => {
    const node = (await call(t, 'POST', '/api/nodes', { token: admin, body: body({ name: 'eu-4' }) })).json<{
      id: string;
    }>();
    await t.db.kysely
      .insertInto('servers')
      .values({
        id: 'abcdef01',
        name: 'srv-on-eu4',
        node_id: node.id,
        ip: '',
        port: null,
        type: '',
        created_at: 1,
      })
      .execute();
    const url = `/api/nodes/${node.id}`;
    expect((await call(t, 'DELETE', url, { token: nobody })).statusCode).toBe(403);
    const refused = await call(t, 'DELETE', url, { token: admin });
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('ErrNodeHasServers');
    await t.db.kysely.deleteFrom('servers').where('id', '=', 'abcdef01').execute();
    expect((await call(t, 'DELETE', url, { token: admin })).statusCode).toBe(204);
    expect((await call(t, 'GET', url, { token: admin })).statusCode).toBe(404);
  });
});
