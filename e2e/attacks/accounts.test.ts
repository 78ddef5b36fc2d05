/**
 * Attack: accounts and grants as a way to take over what one does not hold (docs/security.md § Authorization,
 * § Sessions and tokens). Against a real panel and a daemon started from its deployment config:
 * - `editUsers` once took over any non-admin account by setting its password, even one holding more flags;
 * - `editServerUsers` once granted itself every server flag and removed the owner and the admin from the server;
 * - a user's OAuth2 access token once enabled two-factor (locking the owner out) and minted new clients, and
 *   client secrets kept minting tokens after a password change.
 * Each is now refused with a catalogued error and leaves nothing changed; the Users tab shows why in Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverPermissions, type ErrorBody, type ServerPermission } from '@hearth/contract';
import { fakeGameDefinition } from '../../apps/daemon/test/helpers/test-daemon';
import { browserAvailable, launchBrowser, openSignedIn } from '../helpers/browser';
import { startPanelWithDaemon, type PanelWithDaemon } from '../helpers/daemon-node';

interface Person {
  id: string;
  email: string;
  password: string;
  session: string;
  scopes: string[];
}
type Row = { email: string } & Record<ServerPermission, boolean>;

const everyFlag = Object.fromEntries(serverPermissions.map((p) => [p, true])) as Record<
  ServerPermission,
  boolean
>;
const canBrowse = browserAvailable('account attacks: Users tab');

describe('accounts and grants cannot take over what one does not hold', () => {
  let live: PanelWithDaemon;
  let serverId = '';

  const api = (token: string, method: string, path: string, body?: unknown) =>
    fetch(`${live.panel.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const ok = async <T>(res: Promise<Response>): Promise<T> => {
    const answer = await res;
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${answer.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const refused = async (res: Promise<Response>, status: number, code: string) => {
    const answer = await res;
    const body = (await answer.json()) as ErrorBody;
    expect([answer.status, body.error.code]).toEqual([status, code]);
  };
  const login = (email: string, password: string) =>
    fetch(`${live.panel.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
  const admin = () => live.admin.session;

  /** An account made by the admin with these panel flags, signed in. */
  async function person(name: string, flags: Record<string, boolean> = {}): Promise<Person> {
    const who = { username: name, email: `${name}@example.com`, password: `${name}-password-1` };
    const { id } = await ok<{ id: string }>(api(admin(), 'POST', '/api/users', who));
    await ok(api(admin(), 'PUT', `/api/users/${id}/perms`, flags));
    const signed = await ok<{ session: string; scopes: string[] }>(login(who.email, who.password));
    return { id, email: who.email, password: who.password, ...signed };
  }
  const setServerUser = (token: string, email: string, flags: object) =>
    api(token, 'PUT', `/api/servers/${serverId}/user/${encodeURIComponent(email)}`, flags);
  const serverRows = () => ok<Row[]>(api(admin(), 'GET', `/api/servers/${serverId}/user`));

  let owner: Person;
  let granter: Person;
  /** The account whose client secrets a password change revoked (finding 6). */
  let revokedHolder: Person | undefined;

  beforeAll(async () => {
    live = await startPanelWithDaemon('accounts-attack-node');
    const body = { ...fakeGameDefinition(), name: 'guarded', node: live.nodeId, users: [] };
    serverId = (await ok<{ id: string }>(api(admin(), 'POST', '/api/servers', body))).id;
    owner = await person('owner');
    granter = await person('granter');
    await ok(setServerUser(admin(), owner.email, everyFlag));
    await ok(setServerUser(admin(), granter.email, { editServerUsers: true, viewServerConsole: true }));
  });
  afterAll(() => live?.stop());

  it('finding 3: editUsers cannot set the password or e-mail of an account holding more; the victim still logs in', async () => {
    const editor = await person('editor', { viewUsers: true, editUsers: true });
    const victim = await person('victim', { panelSettings: true, editTemplates: true });
    await refused(
      api(editor.session, 'POST', `/api/users/${victim.id}`, { password: 'owned-by-editor' }),
      403,
      'ErrCannotEditUser',
    );
    await refused(
      api(editor.session, 'POST', `/api/users/${victim.id}`, { email: 'editor+victim@example.com' }),
      403,
      'ErrCannotEditUser',
    );
    await refused(api(editor.session, 'DELETE', `/api/users/${victim.id}`), 403, 'ErrCannotEditUser');
    // The owner of the server holds server flags the editor does not: out of reach as well.
    await refused(
      api(editor.session, 'POST', `/api/users/${owner.id}`, { password: 'owned-by-editor' }),
      403,
      'ErrCannotEditUser',
    );
    expect((await login(victim.email, 'owned-by-editor')).status).toBe(400);
    expect((await login(victim.email, victim.password)).status).toBe(200);
    expect((await login(owner.email, owner.password)).status).toBe(200);
    // An account holding no more than the editor is still theirs to manage.
    const junior = await person('junior');
    expect(
      (await api(editor.session, 'POST', `/api/users/${junior.id}`, { password: 'reset-by-editor' })).status,
    ).toBe(204);
    expect((await login(junior.email, 'reset-by-editor')).status).toBe(200);
  });

  it('finding 4: editServerUsers cannot grant itself more, nor remove or reduce the owner and the admin', async () => {
    await refused(setServerUser(granter.session, granter.email, everyFlag), 403, 'ErrCannotGrantPermission');
    await refused(
      setServerUser(granter.session, 'helper@example.com', { startServer: true }),
      403,
      'ErrCannotGrantPermission',
    );
    for (const email of [owner.email, live.admin.email]) {
      await refused(
        api(granter.session, 'DELETE', `/api/servers/${serverId}/user/${encodeURIComponent(email)}`),
        403,
        'ErrCannotEditUser',
      );
      await refused(
        setServerUser(granter.session, email, { viewServerConsole: true }),
        403,
        'ErrCannotEditUser',
      );
    }
    const rows = await serverRows();
    expect(rows.find((r) => r.email === owner.email)).toMatchObject(everyFlag);
    expect(rows.find((r) => r.email === live.admin.email)).toMatchObject(everyFlag);
    expect(rows.find((r) => r.email === granter.email)).toMatchObject({
      editServerUsers: true,
      viewServerConsole: true,
      startServer: false,
      editServerData: false,
    });
    expect(rows.map((r) => r.email)).not.toContain('helper@example.com');
    // Nothing reached the daemon: the granter still cannot start the server; the owner still reaches it.
    await refused(
      api(granter.session, 'POST', `/proxy/daemon/server/${serverId}/start`),
      403,
      'ErrNoPermission',
    );
    const detail = await ok<{ permissions: Record<string, boolean> }>(
      api(owner.session, 'GET', `/api/servers/${serverId}?perms`),
    );
    expect(detail.permissions).toMatchObject(everyFlag);
    // What the granter holds, it still grants.
    const friend = await person('friend');
    expect((await setServerUser(granter.session, friend.email, { viewServerConsole: true })).status).toBe(
      204,
    );
  });

  it.runIf(canBrowse)('the Users tab locks what the granter may not change and says why', async () => {
    const browser = await launchBrowser();
    try {
      const { page, pageErrors } = await openSignedIn(
        browser,
        live.panel.url,
        granter,
        `/server/${serverId}`,
      );
      await page.getByTestId('server-tabs').getByText('Users').click();
      const tab = page.getByTestId('users-tab');
      await tab.getByText('You can grant only the permissions you hold on this server.').waitFor();
      const ownerEntry = page.locator(`[data-email="${owner.email}"]`);
      await ownerEntry.getByTestId('server-user-locked').waitFor();
      expect(await ownerEntry.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
      expect(await ownerEntry.getByLabel('View console').isDisabled()).toBe(true);
      const mine = page.locator(`[data-email="${granter.email}"]`);
      expect(await mine.getByLabel('View console').isDisabled()).toBe(false);
      expect(await mine.getByLabel('SFTP access').isDisabled()).toBe(true);
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('finding 6: an OAuth2 token cannot enable two-factor, change the password or mint clients', async () => {
    const user = await person('tokenholder');
    await ok(setServerUser(admin(), user.email, { viewServerConsole: true }));
    const client = await ok<{ id: string; secret: string }>(
      api(user.session, 'POST', '/api/self/oauth2', { name: 'ci', description: '' }),
    );
    const serverClient = await ok<{ id: string; secret: string }>(
      api(user.session, 'POST', `/api/servers/${serverId}/oauth2`, { name: 'bot', description: '' }),
    );
    const mint = (c: { id: string; secret: string }) =>
      fetch(`${live.panel.url}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: c.id,
          client_secret: c.secret,
        }),
      });
    const token = ((await (await mint(client)).json()) as { access_token: string }).access_token;
    const serverToken = ((await (await mint(serverClient)).json()) as { access_token: string }).access_token;
    expect((await api(token, 'GET', '/api/self')).status).toBe(200);
    expect((await api(serverToken, 'GET', `/api/servers/${serverId}`)).status).toBe(200);

    await refused(api(token, 'POST', '/api/self/otp'), 403, 'ErrSessionRequired');
    await refused(api(token, 'PUT', '/api/self/otp', { token: '123456' }), 403, 'ErrSessionRequired');
    await refused(
      api(token, 'PUT', '/api/self', { password: user.password, newPassword: 'chosen-by-token' }),
      403,
      'ErrSessionRequired',
    );
    await refused(api(token, 'POST', '/api/self/oauth2', { name: 'mine now' }), 403, 'ErrSessionRequired');
    await refused(
      api(serverToken, 'POST', `/api/servers/${serverId}/oauth2`, { name: 'x' }),
      403,
      'ErrSessionRequired',
    );
    const listed = await ok<Array<{ client_id: string }>>(api(user.session, 'GET', '/api/self/oauth2'));
    expect(listed.map((c) => c.client_id)).toEqual([client.id]);
    // The owner still logs in with the password alone: no two-factor was enabled behind their back.
    const signIn = await ok<{ session?: string; otpNeeded?: boolean }>(login(user.email, user.password));
    expect(signIn.otpNeeded).toBeUndefined();
    expect(signIn.session).toBeTruthy();

    // A password change revokes the secrets: tokens minted before it are refused after it.
    await ok(
      api(user.session, 'PUT', '/api/self', { password: user.password, newPassword: 'after-a-leak-1' }),
    );
    await refused(api(token, 'GET', '/api/self'), 401, 'ErrSessionTimedOut');
    await refused(api(serverToken, 'GET', `/api/servers/${serverId}`), 401, 'ErrSessionTimedOut');
    for (const c of [client, serverClient]) {
      const res = await mint(c);
      expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([401, 'invalid_client']);
    }
    const after = await ok<Array<{ client_id: string; revoked: boolean }>>(
      api(user.session, 'GET', '/api/self/oauth2'),
    );
    expect(after).toEqual([expect.objectContaining({ client_id: client.id, revoked: true })]);
    revokedHolder = user;
  });

  it.runIf(canBrowse)('the account page shows the revoked client and what to do', async () => {
    if (!revokedHolder) throw new Error('finding 6 did not run');
    const browser = await launchBrowser();
    try {
      const { page, pageErrors } = await openSignedIn(browser, live.panel.url, revokedHolder, '/account');
      const entry = page.getByTestId('oauth2-card').getByTestId('oauth2-client');
      await entry.getByText('Revoked', { exact: true }).waitFor();
      await entry.getByText('Delete this client and create a new one.', { exact: false }).waitFor();
      expect(await entry.getAttribute('data-revoked')).toBe('true');
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
