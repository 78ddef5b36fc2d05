/**
 * The node's one-step install on every dialect (docs/operations.md § Remote node): `GET /api/nodes/{id}/package`
 * serves the newest package of the asked architecture from `<dataDir>/packages/` to the node's own credential
 * only (none or a wrong secret → 401, another node's → 403, a user session is not one → 401), a panel without a
 * package says where to put one (404 ErrNodePackageMissing), and the deployment instructions carry the install
 * steps for a remote node but not for the local one.
 */
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { hostDebianArch, packagesDirOf } from '../../src/modules/nodes/node-package';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const errorOf = (res: { json: () => unknown }) =>
  (res.json() as { error?: { code?: string; msg?: string } }).error;

describe.each(DIALECTS)('node package download on %s', (dialect) => {
  let t: TestApp;
  let admin: { id: string; token: string };
  const nodes: { id: string; secret: string; steps: string[] }[] = [];
  let dir = '';
  const arch = hostDebianArch();

  const download = (nodeId: string, authorization?: string, query = '') =>
    call(
      t,
      'GET',
      `/api/nodes/${nodeId}/package${query}`,
      authorization ? { headers: { authorization } } : {},
    );
  const put = (name: string, text: string, mtimeSeconds: number) => {
    writeFileSync(join(dir, name), text);
    utimesSync(join(dir, name), mtimeSeconds, mtimeSeconds);
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await createUser(t, { admin: true });
    dir = packagesDirOf(t.config.panel.dataDir);
    for (const name of ['one', 'two']) {
      const body = {
        name,
        publicHost: `${name}.example.com`,
        publicPort: 1,
        privateHost: name,
        privatePort: 1,
      };
      const created = await call(t, 'POST', '/api/nodes', {
        token: admin.token,
        body: { ...body, sftpPort: 2 },
      });
      expect(created.statusCode, created.body).toBe(200);
      const { id, deployment } = created.json<{
        id: string;
        deployment: { clientSecret: string; installSteps: string[] };
      }>();
      nodes.push({ id, secret: deployment.clientSecret, steps: deployment.installSteps });
    }
  });
  afterAll(() => t?.close());

  it('without a package: 404 ErrNodePackageMissing naming the folder and the architecture', async () => {
    rmSync(dir, { recursive: true, force: true });
    const [one] = nodes;
    const res = await download(one!.id, basic(`.node_${one!.id}`, one!.secret));
    expect(res.statusCode, res.body).toBe(404);
    expect(errorOf(res)?.code).toBe('ErrNodePackageMissing');
    expect(errorOf(res)?.msg).toContain(dir);
    expect(errorOf(res)?.msg).toContain(`hearth_*_${arch}.deb`);
  });

  it('serves the newest package of the architecture to the node’s own credential', async () => {
    mkdirSync(dir, { recursive: true });
    put(`hearth_0.1.0_${arch}.deb`, 'older', 1_700_000_000);
    put(`hearth_0.2.0_${arch}.deb`, 'newest', 1_700_000_100);
    put('hearth_0.3.0_otherarch.deb', 'another architecture', 1_700_000_200);
    put(`notes-${arch}.deb`, 'not a hearth package', 1_700_000_300);
    const [one] = nodes;
    const res = await download(one!.id, basic(`.node_${one!.id}`, one!.secret));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('newest');
    expect(res.headers['content-type']).toBe('application/vnd.debian.binary-package');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="hearth_0.2.0_${arch}.deb"`);
    const other = await download(one!.id, basic(`.node_${one!.id}`, one!.secret), '?arch=otherarch');
    expect(other.statusCode, other.body).toBe(200);
    expect(other.body).toBe('another architecture');
    const none = await download(one!.id, basic(`.node_${one!.id}`, one!.secret), '?arch=s390x');
    expect(errorOf(none)?.code).toBe('ErrNodePackageMissing');
  });

  it('refuses no credential, a wrong secret, a user session (401) and another node’s credential (403)', async () => {
    const [one, two] = nodes;
    const bare = await download(one!.id);
    expect([bare.statusCode, errorOf(bare)?.code]).toEqual([401, 'ErrLoginNotPermitted']);
    const wrong = await download(one!.id, basic(`.node_${one!.id}`, `${one!.secret}x`));
    expect([wrong.statusCode, errorOf(wrong)?.code]).toEqual([401, 'ErrLoginNotPermitted']);
    const session = await download(one!.id, `Bearer ${admin.token}`);
    expect(session.statusCode).toBe(401);
    const otherNode = await download(one!.id, basic(`.node_${two!.id}`, two!.secret));
    expect([otherNode.statusCode, errorOf(otherNode)?.code]).toEqual([403, 'ErrNoPermission']);
    expect(otherNode.body).not.toContain('newest');
    const badArch = await download(one!.id, basic(`.node_${one!.id}`, one!.secret), '?arch=../../etc');
    expect(badArch.statusCode).toBe(400);
  });

  it('the deployment carries the install steps for a remote node, none for the local node', async () => {
    const [one] = nodes;
    const shown = await call(t, 'GET', `/api/nodes/${one!.id}/deployment`, { token: admin.token });
    const { installSteps, config } = shown.json<{
      installSteps: string[];
      config: Record<string, unknown>;
    }>();
    expect(installSteps).toEqual(one!.steps);
    const script = installSteps.join('\n');
    expect(installSteps[0]).toContain(JSON.stringify(config, null, 2));
    expect(script).toContain(`/api/nodes/${one!.id}/package`);
    expect(script).toContain(`.node_${one!.id}:${one!.secret}`);
    expect(installSteps.at(-1)).toBe('systemctl enable --now hearth-daemon.service');
    await t.services.nodes.issueLocalSecret();
    const local = await call(t, 'GET', '/api/nodes/local/deployment', { token: admin.token });
    expect(local.statusCode, local.body).toBe(200);
    expect(local.json()).not.toHaveProperty('installSteps');
  });
});
