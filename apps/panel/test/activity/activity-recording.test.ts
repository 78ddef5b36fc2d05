/**
 * What the panel's services record, on every dialect: each entry names the caller and their IP (the request's
 * actor reaches the service through the request context), and no secret ever appears — not a new password,
 * not the mail provider's password, not an OAuth2 client secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry, ActivityPage } from '@hearth/contract';
import { buildTestApp, call, createUser, type TestApp, type TestUser } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { grant, seedServer } from '../servers/fixtures';

describe.each(DIALECTS)('activity recorded by panel services on %s', (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  const ip = '198.51.100.23';
  const as = (token: string, body?: unknown) => ({ token, body, headers: { 'x-forwarded-for': ip } });
  const latest = async (action: string): Promise<ActivityEntry | undefined> => {
    const res = await call(t, 'GET', `/api/activity?action=${action}&limit=1`, { token: admin.token });
    return res.json<ActivityPage>().entries[0];
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect, { web: { trustProxy: true } });
    admin = await createUser(t, { admin: true });
  });
  afterAll(() => t?.close());

  it('records a rename and a grant on a server with the caller and IP', async () => {
    const serverId = await seedServer(t);
    const owner = await createUser(t);
    await grant(t, owner.id, serverId, ['editServerData', 'editServerUsers', 'viewServerConsole']);
    const renamed = await call(
      t,
      'PUT',
      `/api/servers/${serverId}/name/renamed-${serverId}`,
      as(owner.token),
    );
    expect(renamed.statusCode).toBe(204);
    expect(await latest('server.renamed')).toMatchObject({
      actorType: 'user',
      actorId: owner.id,
      actorLabel: owner.username,
      ip,
      serverId,
      details: { name: `renamed-${serverId}` },
    });
    const helper = await createUser(t);
    const url = `/api/servers/${serverId}/user/${encodeURIComponent(helper.email)}`;
    expect((await call(t, 'PUT', url, as(owner.token, { viewServerConsole: true }))).statusCode).toBe(204);
    expect(await latest('server.users.changed')).toMatchObject({
      actorId: owner.id,
      serverId,
      details: { email: helper.email, userId: helper.id, granted: ['viewServerConsole'] },
    });
    // A refused grant (a flag the granter lacks) records nothing.
    const before = await latest('server.users.changed');
    expect((await call(t, 'PUT', url, as(owner.token, { stopServer: true }))).statusCode).toBe(403);
    expect((await latest('server.users.changed'))?.id).toBe(before?.id);
  });

  it('records a template import with its name and source', async () => {
    const [name] = await t.services.templates.importableNames();
    expect(name).toBeTruthy();
    const url = `/api/templates/import/${encodeURIComponent(name ?? '')}`;
    expect((await call(t, 'POST', url, as(admin.token))).statusCode).toBeLessThan(300);
    expect(await latest('template.imported')).toMatchObject({ actorId: admin.id, ip, details: { name } });
  });

  it('records settings changes without the secret values', async () => {
    const body = { 'panel.settings.companyName': 'Acme', 'panel.email.password': 'mail-pass-XYZ' };
    expect((await call(t, 'POST', '/api/settings', as(admin.token, body))).statusCode).toBe(204);
    const entry = await latest('settings.changed');
    expect(entry).toMatchObject({
      actorId: admin.id,
      ip,
      details: { changes: { 'panel.settings.companyName': 'Acme' }, withheld: ['panel.email.password'] },
    });
    expect(JSON.stringify(entry)).not.toContain('mail-pass-XYZ');
  });

  it('records account changes: users, permission grants and removals, password, OAuth2 clients', async () => {
    const created = await call(
      t,
      'POST',
      '/api/users',
      as(admin.token, { username: 'newbie', email: 'newbie@x.io', password: 'first password' }),
    );
    const id = created.json<{ id: string }>().id;
    expect(await latest('user.created')).toMatchObject({
      actorId: admin.id,
      details: { userId: id, username: 'newbie' },
    });
    await call(t, 'PUT', `/api/users/${id}/perms`, as(admin.token, { viewNodes: true, viewUsers: true }));
    await call(t, 'PUT', `/api/users/${id}/perms`, as(admin.token, { viewNodes: true }));
    expect(await latest('user.permissions.changed')).toMatchObject({
      details: { userId: id, granted: [], removed: ['viewUsers'] },
    });
    const self = await createUser(t);
    const change = { password: self.password, newPassword: 'a new password 42' };
    expect((await call(t, 'PUT', '/api/self', as(self.token, change))).statusCode).toBe(204);
    const pw = await latest('account.password.changed');
    expect(pw).toMatchObject({ actorId: self.id, ip, details: { userId: self.id, changed: ['password'] } });
    expect(JSON.stringify(pw)).not.toContain('a new password 42');
    const client = await call(t, 'POST', '/api/self/oauth2', as(self.token, { name: 'ci', description: '' }));
    const { id: clientId, secret } = client.json<{ id: string; secret: string }>();
    const made = await latest('oauth2.client.created');
    expect(made).toMatchObject({ actorId: self.id, details: { clientId, name: 'ci' } });
    expect(JSON.stringify(made)).not.toContain(secret);
    expect((await call(t, 'DELETE', `/api/self/oauth2/${clientId}`, as(self.token))).statusCode).toBe(204);
    expect(await latest('oauth2.client.deleted')).toMatchObject({ actorId: self.id, details: { clientId } });
  });
});
