/**
 * `hearth start` as an operator runs it (a child process, temp data dir): the local node's SFTP works out of the
 * box — the panel issues the local node's credential at start and hands it to the daemon in-process. First
 * admin through the setup link, a server on the local node, then OpenSSH `sftp` (`email|id` from an ssh config).
 * A wrong password is refused at login ("Permission denied (password).") and leaves the server's folder as it
 * was. The local node listens on ports of the config's `node` section (free ones here), so the suite runs beside
 * anything on the default 5656 and 5657.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { startHearth, type HearthStart } from './deploy/helpers/hearth-start';
import { expectLoginRefused, expectSftpOk, runSftp } from './helpers/sftp-client';
import { treeState } from './helpers/tree-state';

const admin = { username: 'admin', email: 'admin@example.com', password: 'admin-password-1' };

describe('hearth start: SFTP on the local node', () => {
  let dir: string;
  let hearth: HearthStart | undefined;
  let panelUrl: string;
  let setupUrl: string;
  let sftpPort: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hearth-start-'));
    hearth = await startHearth(dir);
    ({ setupUrl, sftpPort } = hearth);
    panelUrl = `http://127.0.0.1:${hearth.port}`;
  }, 60_000);
  afterAll(async () => {
    await hearth?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'creates the admin, a server on the local node, and lists it over SFTP',
    { timeout: 90_000 },
    async () => {
      const token = new URL(setupUrl).searchParams.get('token');
      const setup = await fetch(`${panelUrl}/auth/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...admin, token }),
      });
      expect(setup.status, await setup.clone().text()).toBe(200);
      const { session } = (await setup.json()) as { session: string };
      const auth = { authorization: `Bearer ${session}`, 'content-type': 'application/json' };

      const body = { ...fakeGameDefinition(), name: 'sftp-local', node: 'local', users: [] };
      const created = await fetch(`${panelUrl}/api/servers`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(body),
      });
      expect(created.ok, await created.clone().text()).toBe(true);
      const { id } = (await created.json()) as { id: string };
      const install = await fetch(`${panelUrl}/proxy/daemon/server/${id}/install?wait=true`, {
        method: 'POST',
        headers: { authorization: auth.authorization },
      });
      expect(install.ok, await install.clone().text()).toBe(true);

      const r = await runSftp(sftpPort, `${admin.email}|${id}`, admin.password, ['ls'], { via: 'config' });
      expectSftpOk(r, 'ls');
      expect(r.stdout).toContain('server.properties');

      // The local node asks its panel too: a wrong password is refused at login and uploads nothing.
      const root = join(dir, 'data', 'servers', id);
      const before = await treeState(root);
      const wrong = await runSftp(sftpPort, `${admin.email}|${id}`, 'not the password', ['put config.json'], {
        via: 'config',
        cwd: dir,
      });
      expectLoginRefused(wrong, 'wrong password');
      expect(await treeState(root)).toEqual(before);
    },
  );
});
