/**
 * `POST /api/nodes/sftp-auth` on every dialect, against a real daemon holding the server: node credential,
 * both user-name forms, wrong password, unknown user, no sftpServer, a server on another node, admins, the
 * per-account limit, and the permissions answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUser } from '../apps/panel/test/helpers/app';
import { DIALECTS } from '../apps/panel/test/helpers/dialects';
import { filesFixture, type FilesFixture } from './helpers/files-fixture';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe.each(DIALECTS)('SFTP auth endpoint on %s', (dialect) => {
  let f: FilesFixture;
  let secret: string;
  const auth = (username: string, password: string, authorization = basic(`.node_${f.nodeId}`, secret)) =>
    call(f.t, 'POST', '/api/nodes/sftp-auth', { headers: { authorization }, body: { username, password } });
  const codeOf = (res: { json: () => unknown }) => (res.json() as { error?: { code?: string } }).error?.code;

  beforeAll(async () => {
    f = await filesFixture(dialect);
    secret = f.nodeSecret;
  });
  afterAll(async () => {
    await f?.close();
  });

  it('answers the permissions for email|id, email%7Cid and email#id', async () => {
    const u = await f.user({ sftpServer: true, viewServerFiles: true });
    for (const sep of ['|', '%7C', '#']) {
      const res = await auth(`${u.email}${sep}${f.serverId}`, u.password);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ email: u.email, serverId: f.serverId });
      expect(res.json<{ permissions: string[] }>().permissions.sort()).toEqual([
        'sftpServer',
        'viewServerFiles',
      ]);
    }
  });

  it('refuses a bad node credential before looking at the user', async () => {
    const u = await f.user({ sftpServer: true });
    for (const authorization of [
      basic(`.node_${f.nodeId}`, 'wrong'),
      basic('.node_nope', secret),
      'Bearer x',
      '',
    ]) {
      const res = await auth(`${u.email}#${f.serverId}`, u.password, authorization);
      expect(res.statusCode).toBe(401);
      expect(codeOf(res)).toBe('ErrLoginNotPermitted');
    }
  });

  it('refuses a wrong password, an unknown user and a malformed name alike', async () => {
    const u = await f.user({ sftpServer: true });
    const attempts: Array<[string, string]> = [
      [`${u.email}#${f.serverId}`, 'wrong password'],
      [`nobody@example.com#${f.serverId}`, u.password],
      [u.email, u.password],
    ];
    for (const [name, password] of attempts) {
      const res = await auth(name, password);
      expect(res.statusCode).toBe(400);
      expect(codeOf(res)).toBe('ErrInvalidCredentials');
    }
  });

  it('needs sftpServer on that server; admins hold it; other servers and nodes are refused', async () => {
    const noSftp = await f.user({ viewServerFiles: true, putServerFiles: true });
    expect(codeOf(await auth(`${noSftp.email}#${f.serverId}`, noSftp.password))).toBe('ErrMissingScope');
    const stranger = await createUser(f.t);
    expect(codeOf(await auth(`${stranger.email}#${f.serverId}`, stranger.password))).toBe('ErrMissingScope');
    expect(codeOf(await auth(`${stranger.email}#nosuchid`, stranger.password))).toBe('ErrMissingScope');
    const admin = await auth(`${f.admin.email}#${f.serverId}`, f.admin.password);
    expect(admin.statusCode).toBe(200);
    expect(admin.json<{ permissions: string[] }>().permissions).toContain('putServerFiles');
    // The same server asked for by another node's credential is refused.
    const other = await call(f.t, 'POST', '/api/nodes', {
      token: f.admin.token,
      body: {
        name: 'other',
        publicHost: '10.0.0.9',
        publicPort: 1,
        privateHost: '10.0.0.9',
        privatePort: 1,
        sftpPort: 2,
      },
    });
    const otherId = other.json<{ id: string }>().id;
    const rotated = await call(f.t, 'POST', `/api/nodes/${otherId}/deployment/rotate`, {
      token: f.admin.token,
    });
    const otherSecret = rotated.json<{ clientSecret: string }>().clientSecret;
    const res = await auth(
      `${f.admin.email}#${f.serverId}`,
      f.admin.password,
      basic(`.node_${otherId}`, otherSecret),
    );
    expect(codeOf(res)).toBe('ErrMissingScope');
  });

  it('limits attempts per account (a success clears the count)', async () => {
    const u = await f.user({ sftpServer: true });
    const name = `${u.email}#${f.serverId}`;
    const wrong = async (times: number) => {
      for (let i = 0; i < times; i += 1)
        expect(codeOf(await auth(name, 'wrong'))).toBe('ErrInvalidCredentials');
    };
    // Nine failures and a success: the success clears the count, so ten more failures are judged again.
    await wrong(9);
    expect((await auth(name, u.password)).statusCode).toBe(200);
    await wrong(10);
    // The eleventh attempt in the window is refused before the password is checked (the right one too).
    const limited = await auth(name, u.password);
    expect(limited.statusCode).toBe(429);
    expect(codeOf(limited)).toBe('ErrRateLimited');
    // The limit is the account's: another account on the same node still logs in.
    const other = await f.user({ sftpServer: true });
    expect((await auth(`${other.email}#${f.serverId}`, other.password)).statusCode).toBe(200);
  });
});
