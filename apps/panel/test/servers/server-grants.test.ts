/**
 * `editServerUsers` grants only what the granter holds (docs/security.md § Authorization): no self-escalation,
 * no flag beyond the granter's own, and no change to — or removal of — a user holding a flag the granter lacks
 * (the owner with every flag, an administrator). Admin granters keep full power; allowed grants still work.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serverPermissions, type ErrorBody, type ServerPermission } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp, type TestUser } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { grant, seedServer } from './fixtures';

type Res = Awaited<ReturnType<typeof call>>;
type Row = { email: string } & Record<ServerPermission, boolean>;
const code = (res: Res) => res.json<ErrorBody>().error.code;
const refusal = (res: Res) => [res.statusCode, code(res)];
const only = (...flags: ServerPermission[]) =>
  Object.fromEntries(serverPermissions.map((p) => [p, flags.includes(p)])) as Record<
    ServerPermission,
    boolean
  >;
const every = only(...serverPermissions);

describe.each(DIALECTS)('editServerUsers grant rules on %s', (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let owner: TestUser;
  let granter: TestUser;
  let plain: TestUser;
  let outsider: TestUser;
  let server: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await createUser(t, { admin: true });
    plain = await createUser(t);
    outsider = await createUser(t);
  });
  afterAll(() => t?.close());

  beforeEach(async () => {
    server = await seedServer(t);
    owner = await createUser(t);
    granter = await createUser(t);
    await grant(t, owner.id, server, [...serverPermissions]);
    await grant(t, granter.id, server, ['editServerUsers', 'viewServerConsole', 'viewServerStats']);
    await grant(t, admin.id, server, [...serverPermissions]);
  });

  const put = (token: string, email: string, body: object, id = server) =>
    call(t, 'PUT', `/api/servers/${id}/user/${encodeURIComponent(email)}`, { token, body });
  const remove = (token: string, email: string) =>
    call(t, 'DELETE', `/api/servers/${server}/user/${encodeURIComponent(email)}`, { token });
  const rows = async () =>
    (await call(t, 'GET', `/api/servers/${server}/user`, { token: admin.token })).json<Row[]>();
  const rowOf = async (email: string) => (await rows()).find((r) => r.email === email);

  it('ladder for PUT …/user/{email}: 401 → 403 → 404 → 400 → 403 ErrCannotGrantPermission → 204', async () => {
    const body = { viewServerConsole: true };
    expect(refusal(await put('', plain.email, body))).toEqual([401, 'ErrNotLoggedIn']);
    await grant(t, plain.id, server, ['viewServerConsole']);
    expect(refusal(await put(plain.token, outsider.email, body))).toEqual([403, 'ErrNoPermission']);
    const hidden = await seedServer(t);
    expect(refusal(await put(granter.token, outsider.email, body, hidden))).toEqual([
      404,
      'ErrServerNotFound',
    ]);
    expect(refusal(await put(granter.token, outsider.email, { notAFlag: true }))).toEqual([
      400,
      'ErrFieldUnknown',
    ]);
    expect(refusal(await put(granter.token, outsider.email, { sftpServer: true }))).toEqual([
      403,
      'ErrCannotGrantPermission',
    ]);
    expect((await put(granter.token, outsider.email, body)).statusCode).toBe(204);
    expect(await rowOf(outsider.email)).toMatchObject(only('viewServerConsole'));
  });

  it('finding 4: the granter cannot give itself more flags; its row stays as it was', async () => {
    const res = await put(granter.token, granter.email, every);
    expect(refusal(res)).toEqual([403, 'ErrCannotGrantPermission']);
    expect(res.json<ErrorBody>().error.metadata).toEqual({ field: 'editServerData' });
    expect(await rowOf(granter.email)).toMatchObject(
      only('editServerUsers', 'viewServerConsole', 'viewServerStats'),
    );
    // What it holds, it may keep or drop.
    expect(
      (await put(granter.token, granter.email, only('editServerUsers', 'viewServerConsole'))).statusCode,
    ).toBe(204);
    expect(await rowOf(granter.email)).toMatchObject(only('editServerUsers', 'viewServerConsole'));
  });

  it('finding 4: the owner and the admin can be neither removed nor reduced; both keep every flag', async () => {
    for (const victim of [owner, admin]) {
      expect(refusal(await remove(granter.token, victim.email)), victim.email).toEqual([
        403,
        'ErrCannotEditUser',
      ]);
      expect(refusal(await put(granter.token, victim.email, only('viewServerConsole')))).toEqual([
        403,
        'ErrCannotEditUser',
      ]);
      expect(await rowOf(victim.email)).toMatchObject(every);
    }
    expect((await call(t, 'GET', `/api/servers/${server}`, { token: owner.token })).statusCode).toBe(200);
  });

  it('an administrator is covered even without a row on the server', async () => {
    const other = await createUser(t, { admin: true });
    expect(refusal(await put(granter.token, other.email, only('viewServerConsole')))).toEqual([
      403,
      'ErrCannotEditUser',
    ]);
    expect(refusal(await remove(granter.token, other.email))).toEqual([403, 'ErrCannotEditUser']);
    expect(await rowOf(other.email)).toBeUndefined();
  });

  it('a refused grant to an unknown e-mail invites nobody', async () => {
    const email = `stranger-${server}@example.com`;
    expect(refusal(await put(granter.token, email, { installServer: true }))).toEqual([
      403,
      'ErrCannotGrantPermission',
    ]);
    expect(await t.services.users.findByEmail(email)).toBeUndefined();
    // An invitation is answered (200, not 204) with what became of its mail and the link to hand over.
    const invited = await put(granter.token, email, { viewServerStats: true });
    expect(invited.statusCode).toBe(200);
    expect(invited.json()).toMatchObject({ invitation: { email, mail: 'noProvider' } });
    expect(invited.json<{ invitation: { link: string } }>().invitation.link).toMatch(
      /\/auth\/invite\?token=/,
    );
    expect((await t.services.users.findByEmail(email))?.status).toBe('invited');
    // Until they register, the server's user list names them by the e-mail.
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/servers/${server}/user`,
      headers: { authorization: `Bearer ${granter.token}` },
    });
    expect(list.json<Array<{ email: string }>>().find((u) => u.email === email)).toMatchObject({
      username: email,
      pending: true,
    });
  });

  it('allowed: grant, reduce and remove a user holding no more than the granter', async () => {
    expect(
      (await put(granter.token, plain.email, only('viewServerConsole', 'viewServerStats'))).statusCode,
    ).toBe(204);
    expect((await put(granter.token, plain.email, only('viewServerStats'))).statusCode).toBe(204);
    expect(await rowOf(plain.email)).toMatchObject(only('viewServerStats'));
    expect((await remove(granter.token, plain.email)).statusCode).toBe(204);
    expect(await rowOf(plain.email)).toBeUndefined();
  });

  it('a user holding one flag the granter lacks is out of reach, however small otherwise', async () => {
    await grant(t, plain.id, server, ['sftpServer']);
    expect(refusal(await put(granter.token, plain.email, only()))).toEqual([403, 'ErrCannotEditUser']);
    expect(refusal(await remove(granter.token, plain.email))).toEqual([403, 'ErrCannotEditUser']);
    expect(await rowOf(plain.email)).toMatchObject(only('sftpServer'));
  });

  it('admins and holders of every flag keep full power', async () => {
    expect((await put(admin.token, granter.email, every)).statusCode).toBe(204);
    expect(await rowOf(granter.email)).toMatchObject(every);
    // Now holding every flag, the former granter may reduce the owner; an admin may remove them.
    expect((await put(granter.token, owner.email, only('viewServerConsole'))).statusCode).toBe(204);
    expect((await remove(admin.token, owner.email)).statusCode).toBe(204);
    expect(await rowOf(owner.email)).toBeUndefined();
  });
});
