/**
 * The panel under test for `bench:files`, in its own process: SQLite, an admin, one node with a freshly issued
 * credential. Prints `{port, token, email, password, nodeId, config}` as JSON (`config`: the node's deployment
 * file, secret included); the daemon runs in its own process (daemon-main.ts). It serves the built web app.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildTestApp, createUser } from '../../apps/panel/test/helpers/app';

// The built web app (`npm run build`; BENCH_WEB_DIR: a copy elsewhere), for the browser upload through the
// file manager (browser-upload.ts).
const webDir = process.env.BENCH_WEB_DIR ?? join(import.meta.dirname, '../../apps/web/dist');
if (!existsSync(join(webDir, 'index.html'))) throw new Error(`${webDir} is missing: run npm run build first`);
const t = await buildTestApp('sqlite', { panel: { webDir } });
const admin = await createUser(t, { admin: true });
const node = await t.services.nodes.create({
  name: 'bench',
  publicHost: '127.0.0.1',
  publicPort: 1,
  privateHost: '127.0.0.1',
  privatePort: 1,
  sftpPort: 2,
});
await t.app.listen({ host: '127.0.0.1', port: 0 });
const address = t.app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const config = { ...node.deployment.config, panelUrl: `http://127.0.0.1:${port}` };
process.stdout.write(`${JSON.stringify({ port, ...admin, nodeId: node.id, config })}\n`);
// A clean exit on SIGTERM, so `--cpu-prof` can write its profile.
process.once('SIGTERM', () => process.exit(0));
