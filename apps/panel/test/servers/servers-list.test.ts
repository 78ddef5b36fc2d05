/**
 * The server list (docs/api.md § Servers): `q` filters by name in any case on every dialect, with `%` and `_`
 * taken literally; an administrator's own servers (a permission row) come first, then the rest by name; a user
 * without servers.view sees only their own; a `q` longer than 100 characters is ErrFieldInvalid-like 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import type { ServersPage } from '@hearth/contract/servers';
import { buildTestApp, call, createUser, type TestApp, type TestUser } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { grant, seedServer } from './fixtures';

describe.each(DIALECTS)('server list search and order on %s', (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let user: TestUser;
  const names = (res: Awaited<ReturnType<typeof call>>) => res.json<ServersPage>().servers.map((s) => s.name);

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await createUser(t, { admin: true });
    user = await createUser(t);
    for (const name of ['Alpha', 'bravo', 'Charlie', 'delta_100%', 'deltaX100']) await seedServer(t, name);
    const mine = await seedServer(t, 'Zulu mine');
    await grant(t, admin.id, mine, ['viewServerConsole']);
    const users = await seedServer(t, 'ALPHA two');
    await grant(t, user.id, users, ['viewServerConsole']);
  });
  afterAll(() => t?.close());

  it("puts the administrator's own servers first, then the rest by name", async () => {
    const res = await call(t, 'GET', '/api/servers?limit=100', { token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(names(res)[0]).toBe('Zulu mine');
    // The rest by name in the database's own collation (which differs between dialects in case and punctuation).
    expect(names(res)).toHaveLength(7);
    expect(names(res).slice(1)).not.toContain('Zulu mine');
  });

  it('filters by name in any case and takes % and _ literally', async () => {
    const alpha = await call(t, 'GET', '/api/servers?q=alpha', { token: admin.token });
    expect(names(alpha).sort()).toEqual(['ALPHA two', 'Alpha']);
    expect(alpha.json<ServersPage>().paging.total).toBe(2);
    expect(names(await call(t, 'GET', '/api/servers?q=_100%25', { token: admin.token }))).toEqual([
      'delta_100%',
    ]);
    expect(names(await call(t, 'GET', '/api/servers?q=nothing', { token: admin.token }))).toEqual([]);
  });

  it('shows a user without servers.view only their own servers, filtered too', async () => {
    expect(names(await call(t, 'GET', '/api/servers', { token: user.token }))).toEqual(['ALPHA two']);
    expect(names(await call(t, 'GET', '/api/servers?q=bravo', { token: user.token }))).toEqual([]);
  });

  it('refuses a search longer than 100 characters', async () => {
    const res = await call(t, 'GET', `/api/servers?q=${'a'.repeat(101)}`, { token: admin.token });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().error.code).toMatch(/^Err/);
  });
});
