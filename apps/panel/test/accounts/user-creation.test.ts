/**
 * One way to create an account (modules/users/user-creator.ts, docs/security.md § Accounts): admin create,
 * self-registration, invitations and first-run setup each leave a user row with its permission row (nothing
 * granted but for the first administrator), answer a taken e-mail or username with 409 on every path, and a
 * failure half-way — the database refusing the permission row or the invitation row — leaves no user row and
 * keeps single-use links usable. The CLI's `user add` is proven in apps/cli/test/cli.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { defaultAuthLimits } from '../../src/lib/rate-limiter';
import { createUserCreator } from '../../src/modules/users/user-creator';
import { storedAccount } from '../helpers/account-rows';
import { buildTestApp, call, createUser, type TestApp, type TestUser } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { refuseInserts } from '../helpers/refuse-inserts';

type Res = Awaited<ReturnType<typeof call>>;
const answer = (res: Res) => [res.statusCode, res.json<ErrorBody>().error.code];
const password = 'long enough pw';
// Registration is limited to 5 a minute per address; this file registers more than that from one address.
const limits = { ...defaultAuthLimits, registerPerIp: { max: 1000, windowMs: 60_000 } };

describe.each(DIALECTS)('user creation on %s', (dialect) => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await buildTestApp(dialect, {}, { limits });
    admin = await createUser(t, { admin: true });
    await t.services.settings.write({ 'panel.registrationEnabled': true });
  });
  afterAll(() => t?.close());

  const account = (email: string) => storedAccount(t.db, email);
  const adminCreate = (body: object) => call(t, 'POST', '/api/users', { token: admin.token, body });
  const register = (body: object) => call(t, 'POST', '/auth/register', { body });
  const invite = (email: string) =>
    call(t, 'POST', '/api/users/invite', { token: admin.token, body: { email } });
  const accept = (token: string, username: string) =>
    call(t, 'POST', '/auth/invite', { body: { token, username, password } });
  const login = (email: string) => call(t, 'POST', '/auth/login', { body: { email, password } });
  const inviteRows = async () =>
    (await t.db.kysely.selectFrom('invites').select('token_hash').execute()).length;

  it('every path writes the user row with a permission row granting nothing', async () => {
    expect(
      (await adminCreate({ username: 'made_by_admin', email: 'Made@Example.com', password })).statusCode,
    ).toBe(200);
    expect(await account('made@example.com')).toMatchObject({
      user: { username: 'made_by_admin', status: 'active' },
      hasPanelRow: true,
      granted: [],
    });

    const registered = await register({ username: 'selfmade', email: 'self@example.com', password });
    expect(registered.statusCode).toBe(200);
    const session = registered.json<{ session: string; scopes: string[] }>();
    expect(session.scopes).toEqual([]);
    expect(await account('self@example.com')).toMatchObject({ hasPanelRow: true, granted: [] });
    expect((await call(t, 'GET', '/api/self', { token: session.session })).statusCode).toBe(200);
    expect((await call(t, 'GET', '/api/users', { token: session.session })).statusCode).toBe(403);

    const { token } = await t.services.invites.invite('guest@example.com');
    expect(await account('guest@example.com')).toMatchObject({
      user: { status: 'invited', password_hash: null },
      hasPanelRow: true,
      granted: [],
    });
    const accepted = await accept(token, 'guest');
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json<{ scopes: string[] }>().scopes).toEqual([]);
    expect(await account('guest@example.com')).toMatchObject({
      user: { username: 'guest', status: 'active' },
      hasPanelRow: true,
      granted: [],
    });

    for (const email of ['made@example.com', 'self@example.com', 'guest@example.com'])
      expect((await login(email)).statusCode, email).toBe(200);
  });

  it('a taken e-mail or username (any case) is 409 ErrDuplicateUser on every path', async () => {
    await adminCreate({ username: 'taken', email: 'taken@example.com', password });
    const sameName = { username: 'TAKEN', email: 'fresh@example.com', password };
    const sameEmail = { username: 'fresh', email: 'Taken@Example.COM', password };
    for (const body of [sameName, sameEmail]) {
      expect(answer(await adminCreate(body)), JSON.stringify(body)).toEqual([409, 'ErrDuplicateUser']);
      expect(answer(await register(body)), JSON.stringify(body)).toEqual([409, 'ErrDuplicateUser']);
    }
    expect(answer(await invite('TAKEN@example.com'))).toEqual([409, 'ErrDuplicateUser']);
    expect(await account('fresh@example.com')).toBeUndefined();

    // A taken username at acceptance rolls the claim back: the same link works with another name.
    const { token } = await t.services.invites.invite('late@example.com');
    expect(answer(await accept(token, 'Taken'))).toEqual([409, 'ErrDuplicateUser']);
    expect((await account('late@example.com'))?.user.status).toBe('invited');
    expect((await accept(token, 'late_comer')).statusCode).toBe(200);
    expect(answer(await accept(token, 'late_again'))).toEqual([400, 'ErrInviteLinkInvalid']);
  });

  it('a pending invitation is taken only through its link, never by another path naming its e-mail', async () => {
    const { id } = await t.services.invites.invite('pending@example.com');
    const body = { username: 'squatter', email: 'PENDING@example.com', password };
    expect(answer(await register(body))).toEqual([409, 'ErrDuplicateUser']);
    expect(answer(await adminCreate(body))).toEqual([409, 'ErrDuplicateUser']);
    expect(await account('pending@example.com')).toMatchObject({
      user: { id, status: 'invited', password_hash: null },
    });
    expect(answer(await login('pending@example.com'))).toEqual([400, 'ErrInvalidCredentials']);
  });

  it('the database refusing the permission row leaves no user row, on every path', async () => {
    const invitesBefore = await inviteRows();
    const restore = await refuseInserts(t.db, 'permissions');
    try {
      const body = { username: 'halfway', email: 'halfway@example.com', password };
      expect(answer(await adminCreate(body))).toEqual([500, 'ErrGeneric']);
      expect(answer(await register(body))).toEqual([500, 'ErrGeneric']);
      expect(answer(await invite('halfway@example.com'))).toEqual([500, 'ErrGeneric']);
      expect(await account('halfway@example.com')).toBeUndefined();
      expect(await inviteRows()).toBe(invitesBefore);
    } finally {
      await restore();
    }
    // Nothing was left behind that would now make the same requests a duplicate.
    expect(
      (await adminCreate({ username: 'halfway', email: 'halfway@example.com', password })).statusCode,
    ).toBe(200);
    expect(
      (await register({ username: 'halfway2', email: 'halfway2@example.com', password })).statusCode,
    ).toBe(200);
    expect((await invite('halfway3@example.com')).statusCode).toBe(200);
  });

  it('the database refusing the invitation row leaves no pending account', async () => {
    const restore = await refuseInserts(t.db, 'invites');
    try {
      expect(answer(await invite('nolink@example.com'))).toEqual([500, 'ErrGeneric']);
    } finally {
      await restore();
    }
    expect(await account('nolink@example.com')).toBeUndefined();
    expect((await invite('nolink@example.com')).statusCode).toBe(200);
  });

  it('accepting: a failure keeps the account pending and the link usable; a pending account without a permission row gets one', async () => {
    const { id, token } = await t.services.invites.invite('older@example.com');
    // As an account from before every account had its permission row.
    await t.db.kysely.deleteFrom('permissions').where('user_id', '=', id).execute();
    const restore = await refuseInserts(t.db, 'permissions');
    try {
      expect(answer(await accept(token, 'older'))).toEqual([500, 'ErrGeneric']);
    } finally {
      await restore();
    }
    expect(await account('older@example.com')).toMatchObject({
      user: { status: 'invited', password_hash: null },
      hasPanelRow: false,
    });
    expect((await accept(token, 'older')).statusCode).toBe(200);
    expect(await account('older@example.com')).toMatchObject({
      user: { username: 'older', status: 'active' },
      hasPanelRow: true,
      granted: [],
    });
  });

  it('the creation checks the contract rules itself, for callers without a route schema (the CLI)', async () => {
    const creator = createUserCreator(t.db);
    const good = { username: 'direct', email: 'direct@example.com', password };
    const cases: Array<[object, string]> = [
      [{ ...good, username: 'no' }, 'ErrUsernameRequirements'],
      [{ ...good, username: 'bad name!' }, 'ErrUsernameRequirements'],
      [{ ...good, password: 'short' }, 'ErrPasswordRequirements'],
      [{ ...good, email: 'not-an-address' }, 'ErrFieldNotEmail'],
      [{ ...good, admin: true }, 'ErrFieldUnknown'],
    ];
    for (const [input, expected] of cases) {
      const refused = creator.create(input as typeof good, { access: 'none' });
      await expect(refused, JSON.stringify(input)).rejects.toMatchObject({ code: expected });
    }
    await expect(creator.createInvited('nope', () => Promise.resolve())).rejects.toMatchObject({
      code: 'ErrFieldNotEmail',
    });
    expect(await account('direct@example.com')).toBeUndefined();
    const { user } = await creator.create(good, { access: 'admin' });
    expect(await account('direct@example.com')).toMatchObject({ user: { id: user.id }, granted: ['admin'] });
  });
});

describe.each(DIALECTS)('first-run setup through the one user creation on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('a failure half-way leaves no user and the link usable; then the first admin holds admin', async () => {
    const token = (await t.services.setup.prepare()) ?? '';
    const body = { token, username: 'root', email: 'root@example.com', password };
    const restore = await refuseInserts(t.db, 'permissions');
    try {
      expect(answer(await call(t, 'POST', '/auth/setup', { body }))).toEqual([500, 'ErrGeneric']);
    } finally {
      await restore();
    }
    expect(await t.services.users.count()).toBe(0);
    // The page's check on load: the link still works after the failed creation, a bogus one does not.
    expect((await call(t, 'POST', '/auth/setup/check', { body: { token } })).statusCode).toBe(204);
    expect(answer(await call(t, 'POST', '/auth/setup/check', { body: { token: 'bogus' } }))).toEqual([
      400,
      'ErrSetupTokenInvalid',
    ]);
    const done = await call(t, 'POST', '/auth/setup', { body });
    expect(done.statusCode).toBe(200);
    expect(done.json<{ scopes: string[] }>().scopes).toContain('servers.admin');
    expect(await storedAccount(t.db, 'root@example.com')).toMatchObject({
      user: { username: 'root', status: 'active' },
      hasPanelRow: true,
      granted: ['admin'],
    });
    expect(answer(await call(t, 'POST', '/auth/setup', { body }))).toEqual([400, 'ErrSetupTokenInvalid']);
    // Once used, the link checks as invalid too.
    expect(answer(await call(t, 'POST', '/auth/setup/check', { body: { token } }))).toEqual([
      400,
      'ErrSetupTokenInvalid',
    ]);
  });
});
