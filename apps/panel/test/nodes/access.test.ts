/**
 * `POST /api/nodes/access` on every dialect: the node credential (wrong secret, another node's id, a user
 * session → 401), the answer for a user with flags, an admin and an editServerAdmin holder, and 404s for an
 * unknown, invited or deleted user, a user without access, an unknown server and another node's server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { grant } from '../servers/fixtures';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const codeOf = (res: { json: () => unknown }) => (res.json() as { error?: { code?: string } }).error?.code;

describe.each(DIALECTS)('node access endpoint on %s', (dialect) => {
  let t: TestApp;
  let admin: { id: string; token: string };
  let localSecret: string;
  let otherNode: string;
  let otherSecret: string;
  let localServer: string;
  let otherServer: string;

  const seed = async (nodeId: string, name: string) => {
    const id = (0x10000000 + Math.floor(Math.random() * 0xefffffff)).toString(16);
    const row = { id, name, node_id: nodeId, ip: '', port: null, type: '', created_at: Date.now() };
    await t.db.kysely.insertInto('servers').values(row).execute();
    return id;
  };
  const ask = (body: unknown, authorization = basic('.node_local', localSecret)) =>
    call(t, 'POST', '/api/nodes/access', { headers: { authorization }, body: body as object });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await createUser(t, { admin: true });
    localSecret = await t.services.nodes.issueLocalSecret();
    const node = {
      name: 'other',
      publicHost: 'o.example.com',
      publicPort: 1,
      privateHost: 'o',
      privatePort: 1,
    };
    otherNode = (
      await call(t, 'POST', '/api/nodes', { token: admin.token, body: { ...node, sftpPort: 2 } })
    ).json<{ id: string }>().id;
    otherSecret = (
      await call(t, 'POST', `/api/nodes/${otherNode}/deployment/rotate`, { token: admin.token })
    ).json<{ clientSecret: string }>().clientSecret;
    localServer = await seed('local', 'here');
    otherServer = await seed(otherNode, 'there');
  });
  afterAll(() => t?.close());

  it('answers the current flags of a user with access', async () => {
    const user = await createUser(t);
    await grant(t, user.id, localServer, ['editServerData', 'sendServerConsole']);
    const res = await ask({ userId: user.id, serverId: localServer });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ admin: false, permissions: ['editServerData', 'sendServerConsole'] });
    // Access changes are seen at once: the next question gets the new answer.
    await grant(t, user.id, localServer, ['editServerData']);
    expect((await ask({ userId: user.id, serverId: localServer })).json()).toEqual({
      admin: false,
      permissions: ['editServerData'],
    });
  });

  it('admins (and editServerAdmin holders, like their tokens) are admin with every flag', async () => {
    const res = await ask({ userId: admin.id, serverId: localServer });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ admin: boolean; permissions: string[] }>()).toMatchObject({ admin: true });
    expect(res.json<{ permissions: string[] }>().permissions).toContain('putServerFiles');
    const serverAdmin = await createUser(t, { editServerAdmin: true });
    await grant(t, serverAdmin.id, localServer, ['editServerData']);
    expect((await ask({ userId: serverAdmin.id, serverId: localServer })).json()).toEqual({
      admin: true,
      permissions: ['editServerData'],
    });
  });

  it('refuses a wrong node credential with 401 before reading the body', async () => {
    const user = await createUser(t);
    await grant(t, user.id, localServer, ['editServerData']);
    const body = { userId: user.id, serverId: localServer };
    for (const authorization of [
      basic('.node_local', 'wrong'),
      basic('.node_local', ''),
      basic(`.node_${otherNode}`, localSecret),
      basic('.node_nope', localSecret),
      basic('local', localSecret),
      `Bearer ${admin.token}`,
      '',
    ]) {
      const res = await ask(body, authorization);
      expect([res.statusCode, codeOf(res)], authorization).toEqual([401, 'ErrLoginNotPermitted']);
    }
    // A body that is not an access request still meets the credential check first.
    const garbage = await ask({ nothing: true }, basic('.node_local', 'wrong'));
    expect(garbage.statusCode).toBe(401);
  });

  it('another node cannot ask about this node’s servers, nor this node about its', async () => {
    const res = await ask({ userId: admin.id, serverId: otherServer });
    expect([res.statusCode, codeOf(res)]).toEqual([404, 'ErrServerNotFound']);
    const theirs = await ask(
      { userId: admin.id, serverId: localServer },
      basic(`.node_${otherNode}`, otherSecret),
    );
    expect([theirs.statusCode, codeOf(theirs)]).toEqual([404, 'ErrServerNotFound']);
    const own = await ask(
      { userId: admin.id, serverId: otherServer },
      basic(`.node_${otherNode}`, otherSecret),
    );
    expect(own.statusCode).toBe(200);
  });

  it('404 for an unknown, invited or deleted user and for a user without access', async () => {
    const unknown = await ask({ userId: 'no-such-user', serverId: localServer });
    expect([unknown.statusCode, codeOf(unknown)]).toEqual([404, 'ErrUserNotFound']);
    const invited = await t.services.users.insert({
      username: `invited${dialect}`,
      email: `invited-${dialect}@example.com`,
      passwordHash: null,
      status: 'invited',
    });
    await grant(t, invited.id, localServer, ['editServerData']);
    const pending = await ask({ userId: invited.id, serverId: localServer });
    expect([pending.statusCode, codeOf(pending)]).toEqual([404, 'ErrUserNotFound']);
    const stranger = await createUser(t);
    const none = await ask({ userId: stranger.id, serverId: localServer });
    expect([none.statusCode, codeOf(none)]).toEqual([404, 'ErrServerNotFound']);
    const missing = await ask({ userId: admin.id, serverId: 'nosuchid' });
    expect([missing.statusCode, codeOf(missing)]).toEqual([404, 'ErrServerNotFound']);
    const gone = await createUser(t);
    await grant(t, gone.id, localServer, ['editServerData']);
    expect((await ask({ userId: gone.id, serverId: localServer })).statusCode).toBe(200);
    const removed = await call(t, 'DELETE', `/api/users/${gone.id}`, { token: admin.token });
    expect(removed.statusCode).toBe(204);
    const after = await ask({ userId: gone.id, serverId: localServer });
    expect([after.statusCode, codeOf(after)]).toEqual([404, 'ErrUserNotFound']);
  });

  it('400 ErrFieldInvalid for a malformed body from a valid node', async () => {
    for (const body of [
      {},
      { userId: '', serverId: localServer },
      { userId: 'x', serverId: 'y', extra: 1 },
    ]) {
      const res = await ask(body);
      expect([res.statusCode, codeOf(res)], JSON.stringify(body)).toEqual([400, 'ErrFieldInvalid']);
    }
  });
});
