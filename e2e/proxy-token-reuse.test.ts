/**
 * The panel reuses a daemon token for the same grant (docs/security.md § Panel → daemon tokens), and that never
 * outlives the access it was made for: through a real panel and daemon, a withdrawn flag is refused on the very
 * next request, a restored one works at once, and a deleted server answers not-found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/panel/test/helpers/app';
import { DIALECTS } from '../apps/panel/test/helpers/dialects';
import { filesFixture, type FilesFixture } from './helpers/files-fixture';

describe.each(DIALECTS)('token reuse through the proxy on %s', (dialect) => {
  let f: FilesFixture;
  beforeAll(async () => {
    f = await filesFixture(dialect);
  });
  afterAll(async () => {
    await f?.close();
  });

  const list = (token: string) =>
    fetch(`${f.panelUrl}/proxy/daemon/server/${f.serverId}/file/`, {
      headers: { authorization: `Bearer ${token}` },
    }).then((res) => res.status);
  const setFlags = async (email: string, perms: Record<string, boolean>) => {
    const path = `/api/servers/${f.serverId}/user/${encodeURIComponent(email)}`;
    const res = await call(f.t, 'PUT', path, { token: f.admin.token, body: perms });
    expect(res.statusCode).toBe(204);
  };

  it('refuses a withdrawn flag on the next request and honours a restored one at once', async () => {
    const user = await f.user({ viewServerFiles: true, viewServerConsole: true });
    for (let i = 0; i < 5; i++) expect(await list(user.token)).toBe(200);
    await setFlags(user.email, { viewServerFiles: false, viewServerConsole: true });
    expect(await list(user.token)).toBe(403);
    await setFlags(user.email, { viewServerFiles: true, viewServerConsole: true });
    expect(await list(user.token)).toBe(200);
  });

  it('answers not-found for a deleted server right after the delete', async () => {
    expect(await list(f.admin.token)).toBe(200);
    const del = await call(f.t, 'DELETE', `/api/servers/${f.serverId}`, { token: f.admin.token });
    expect(del.statusCode).toBeLessThan(300);
    expect(await list(f.admin.token)).toBe(404);
  });
});
