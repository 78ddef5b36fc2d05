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

  it('deployment: the complete file again on GET (secret and TLS key sealed at rest); rotate replaces both', async () => {
    const created = await call(t, 'POST', '/api/nodes', { token: admin, body: body({ name: 'eu-3' }) });
    const node = created.json<{
      id: string;
      tlsMode: string;
      tlsFingerprint: string;
      tlsNeedsRotate: boolean;
      deployment: { clientSecret: string; clientId: string; tlsFingerprint: string };
    }>();
    expect(node).toMatchObject({ tlsMode: 'pinned', tlsNeedsRotate: false });
    expect(node.tlsFingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(node.deployment.tlsFingerprint).toBe(node.tlsFingerprint);
    expect(node.deployment.clientSecret).toMatch(/.{20,}/);
    // The file itself carries the secret (the daemon's SFTP reads it at `sftp.clientSecret`) and the TLS pair.
    expect(node.deployment).toMatchObject({
      config: {
        sftp: { clientSecret: node.deployment.clientSecret },
        tls: {
          certPem: expect.stringContaining('BEGIN CERTIFICATE') as unknown,
          keyPem: expect.stringContaining('PRIVATE KEY') as unknown,
        },
      },
    });
    const url = `/api/nodes/${node.id}/deployment`;
    expect((await call(t, 'GET', url)).statusCode).toBe(401);
    expect((await call(t, 'GET', url, { token: viewer })).statusCode).toBe(403);
    expect((await call(t, 'GET', url, { token: nobody })).statusCode).toBe(403);
    expect((await call(t, 'GET', '/api/nodes/nope/deployment', { token: deployer })).statusCode).toBe(404);
    // Viewers of nodes see the pin, never the secrets.
    const seen = (await call(t, 'GET', `/api/nodes/${node.id}`, { token: viewer })).json<object>();
    expect(JSON.stringify(seen)).not.toContain(node.deployment.clientSecret);
    expect(JSON.stringify(seen)).not.toContain('PRIVATE KEY');
    const first = await call(t, 'GET', url, { token: deployer });
    expect(first.statusCode).toBe(200);
    const dep = first.json<{
      config: { tls: { certPem: string; keyPem: string } };
      publicKey: string;
      clientSecret?: string;
      clientId: string;
    }>();
    expect(dep.publicKey).toContain('BEGIN PUBLIC KEY');
    expect(dep.clientSecret).toBe(node.deployment.clientSecret);
    expect(dep.config).toMatchObject({ sftp: { port: 5657, clientSecret: node.deployment.clientSecret } });
    expect(dep.clientId).toBe(node.deployment.clientId);
    // The daemon's own schema accepts this file: proven in e2e/nodes (panel tests may not import the daemon).
    expect(dep.config).toMatchObject({ nodeId: node.id, port: 8080, publicKeyPem: dep.publicKey });
    expect(dep.config).toHaveProperty('panelUrl', expect.stringMatching(/^http/));
    // At rest: the hash and sealed values only — neither the secret nor the key is in the row in clear.
    const row = async () => t.services.nodesRepo.findById(node.id);
    const stored = JSON.stringify(await row());
    expect(stored).not.toContain(node.deployment.clientSecret);
    expect(stored).not.toContain(dep.config.tls.keyPem.split('\n')[1]);
    expect((await row())?.tls_key_sealed).toMatch(/^sb1:/);
    expect((await row())?.secret_sealed).toMatch(/^sb1:/);
    const before = await row();
    await call(t, 'GET', url, { token: deployer });
    expect(await row()).toEqual(before);
    const rotate = `${url}/rotate`;
    expect((await call(t, 'POST', rotate)).statusCode).toBe(401);
    expect((await call(t, 'POST', rotate, { token: viewer })).statusCode).toBe(403);
    expect((await call(t, 'POST', '/api/nodes/nope/deployment/rotate', { token: deployer })).statusCode).toBe(
      404,
    );
    const rotated = (await call(t, 'POST', rotate, { token: deployer })).json<{
      clientSecret: string;
      tlsFingerprint: string;
    }>();
    expect(rotated.clientSecret).not.toBe(node.deployment.clientSecret);
    expect(rotated.tlsFingerprint).not.toBe(node.tlsFingerprint);
    expect(rotated).toMatchObject({ config: { sftp: { port: 5657, clientSecret: rotated.clientSecret } } });
    expect((await row())?.secret_hash).not.toBe(before?.secret_hash);
    const again = (await call(t, 'GET', url, { token: deployer })).json<{ clientSecret: string }>();
    expect(again.clientSecret).toBe(rotated.clientSecret);
    const view = (await call(t, 'GET', `/api/nodes/${node.id}`, { token: viewer })).json<object>();
    expect(view).toMatchObject({ tlsFingerprint: rotated.tlsFingerprint });
  });

  it("link modes: pinned by default; ca and plain are an administrator's choice (plain on loopback aside)", async () => {
    const editor = (await createUser(t, { editNodes: true, viewNodes: true })).token;
    const create = (token: string, over: Record<string, unknown>) =>
      call(t, 'POST', '/api/nodes', { token, body: body(over) });
    for (const tlsMode of ['ca', 'plain']) {
      const refused = await create(editor, { name: `by-editor-${tlsMode}`, tlsMode });
      expect(refused.statusCode, tlsMode).toBe(403);
      expect(refused.json<{ error: object }>().error).toMatchObject({
        code: 'ErrMissingScope',
        metadata: { field: 'tlsMode' },
      });
    }
    expect((await create(editor, { name: 'bad-mode', tlsMode: 'none' })).statusCode).toBe(400);
    // Plain HTTP to a loopback address never leaves the machine: an editor may choose it.
    const loop = await create(editor, { name: 'loop', privateHost: '127.0.0.3', tlsMode: 'plain' });
    expect(loop.statusCode).toBe(200);
    const loopId = loop.json<{ id: string }>().id;
    // … but may not point that unpinned node somewhere else.
    const moved = await call(t, 'PUT', `/api/nodes/${loopId}`, {
      token: editor,
      body: { privateHost: '10.0.0.9' },
    });
    expect(moved.statusCode).toBe(403);
    const pinnedId = (await create(editor, { name: 'pinned-by-editor' })).json<{ id: string }>().id;
    const url = `/api/nodes/${pinnedId}`;
    for (const tlsMode of ['ca', 'plain']) {
      expect((await call(t, 'PUT', url, { token: editor, body: { tlsMode } })).statusCode).toBe(403);
    }
    expect((await call(t, 'GET', url, { token: admin })).json()).toMatchObject({ tlsMode: 'pinned' });
    // The editor may still move a pinned node (the pin follows it) and rename an admin's `ca` node.
    expect((await call(t, 'PUT', url, { token: editor, body: { privateHost: '10.0.0.8' } })).statusCode).toBe(
      204,
    );
    expect((await call(t, 'PUT', url, { token: admin, body: { tlsMode: 'ca' } })).statusCode).toBe(204);
    expect((await call(t, 'PUT', url, { token: editor, body: { name: 'renamed-ca' } })).statusCode).toBe(204);
    expect((await call(t, 'PUT', url, { token: editor, body: { privateHost: '10.0.0.7' } })).statusCode).toBe(
      403,
    );
    expect((await call(t, 'PUT', url, { token: admin, body: { tlsMode: 'plain' } })).statusCode).toBe(204);
    const plainNode = (await call(t, 'GET', url, { token: viewer })).json<object>();
    expect(plainNode).toMatchObject({ tlsMode: 'plain', privateHost: '10.0.0.8', tlsNeedsRotate: false });
    // A plain node's file has no TLS section (the daemon serves HTTP); a `ca` node's names the operator's files.
    const plainDep = (await call(t, 'GET', `${url}/deployment`, { token: admin })).json<{ config: object }>();
    expect(plainDep.config).not.toHaveProperty('tls');
    await call(t, 'PUT', url, { token: admin, body: { tlsMode: 'ca' } });
    const caDep = (await call(t, 'GET', `${url}/deployment`, { token: admin })).json<{
      config: object;
      tlsFingerprint: string | null;
    }>();
    expect(caDep.config).toMatchObject({
      tls: { certFile: expect.any(String) as unknown, keyFile: expect.any(String) as unknown },
    });
    expect(caDep.tlsFingerprint).toBeNull();
    // The local node stays plain.
    const local = await call(t, 'PUT', '/api/nodes/local', { token: admin, body: { tlsMode: 'pinned' } });
    expect(local.json<{ error: object }>().error).toMatchObject({ code: 'ErrFieldInvalid' });
    expect((await call(t, 'GET', '/api/nodes/local', { token: admin })).json()).toMatchObject({
      tlsMode: 'plain',
      tlsFingerprint: null,
      tlsNeedsRotate: false,
    });
  });

  it('sealed values the data folder key cannot open show as missing (rotate), never as a 500', async () => {
    const id = (
      await call(t, 'POST', '/api/nodes', { token: admin, body: body({ name: 'resealed' }) })
    ).json<{
      id: string;
    }>().id;
    // As if keys/secrets.key had been replaced: the sealed values no longer authenticate.
    const row = await t.services.nodesRepo.findById(id);
    const broken = (sealed: string | null | undefined) => `${(sealed ?? '').slice(0, -4)}AAA=`;
    await t.db.kysely
      .updateTable('nodes')
      .set({ secret_sealed: broken(row?.secret_sealed), tls_key_sealed: broken(row?.tls_key_sealed) })
      .where('id', '=', id)
      .execute();
    const dep = await call(t, 'GET', `/api/nodes/${id}/deployment`, { token: deployer });
    expect(dep.statusCode).toBe(200);
    const shown = dep.json<{ clientSecret?: string; config: object; tlsFingerprint: string | null }>();
    expect(shown.clientSecret).toBeUndefined();
    expect(shown.config).not.toHaveProperty('tls');
    expect(shown.tlsFingerprint).toBeNull();
    const rotated = await call(t, 'POST', `/api/nodes/${id}/deployment/rotate`, { token: deployer });
    expect(rotated.json<{ clientSecret?: string }>().clientSecret).toMatch(/.{20,}/);
  });

  it('a node from before certificates: pinned without a pin, reached as before, told to rotate', async () => {
    const id = (await call(t, 'POST', '/api/nodes', { token: admin, body: body({ name: 'legacy' }) })).json<{
      id: string;
    }>().id;
    // What 0005 leaves on an older row: no certificate, no sealed secret (only the hash).
    await t.db.kysely
      .updateTable('nodes')
      .set({ tls_cert: null, tls_fingerprint: null, tls_key_sealed: null, secret_sealed: null })
      .where('id', '=', id)
      .execute();
    const view = (await call(t, 'GET', `/api/nodes/${id}`, { token: viewer })).json<object>();
    expect(view).toMatchObject({ tlsMode: 'pinned', tlsFingerprint: null, tlsNeedsRotate: true });
    expect(await t.services.link.address(id)).toMatchObject({ tls: { mode: 'plain' } });
    const dep = (await call(t, 'GET', `/api/nodes/${id}/deployment`, { token: deployer })).json<{
      config: object;
      clientSecret?: string;
    }>();
    expect(dep.clientSecret).toBeUndefined();
    expect(dep.config).not.toHaveProperty('tls');
    expect(dep.config).not.toHaveProperty('sftp.clientSecret');
    await call(t, 'POST', `/api/nodes/${id}/deployment/rotate`, { token: deployer });
    const after = (await call(t, 'GET', `/api/nodes/${id}`, { token: viewer })).json<{
      tlsFingerprint: string;
    }>();
    expect(after).toMatchObject({ tlsMode: 'pinned', tlsNeedsRotate: false });
    expect(await t.services.link.address(id)).toMatchObject({
      tls: { mode: 'pinned', fingerprint: after.tlsFingerprint },
    });
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
