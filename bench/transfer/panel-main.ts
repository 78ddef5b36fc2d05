/**
 * The panel under test for `bench:transfer`, in its own process: SQLite, an admin, two nodes (A on 127.0.0.1, B on
 * 127.0.0.2) with freshly issued credentials. Prints `{port, token, nodes: [{id, config}]}` as JSON; each daemon
 * runs in its own process (bench/files/daemon-main.ts). BENCH_TRANSFER_TLS=plain: both nodes' links in plain HTTP
 * (default: pinned HTTPS, as a new node is), to tell the encryption's share of the cost.
 */
import { buildTestApp, createUser } from '../../apps/panel/test/helpers/app';

const t = await buildTestApp('sqlite');
const admin = await createUser(t, { admin: true });
await t.app.listen({ host: '127.0.0.1', port: 0 });
const address = t.app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const nodes = [];
for (const [name, host] of [
  ['node-a', '127.0.0.1'],
  ['node-b', '127.0.0.2'],
] as const) {
  const node = await t.services.nodes.create({
    name,
    publicHost: host,
    publicPort: 1,
    privateHost: host,
    privatePort: 1,
    sftpPort: 2,
    tlsMode: process.env.BENCH_TRANSFER_TLS === 'plain' ? 'plain' : 'pinned',
  });
  nodes.push({
    id: node.id,
    host,
    config: { ...node.deployment.config, panelUrl: `http://127.0.0.1:${port}` },
  });
}
process.stdout.write(`${JSON.stringify({ port, token: admin.token, nodes })}\n`);
// A clean exit on SIGTERM, so `--cpu-prof` can write its profile.
process.once('SIGTERM', () => process.exit(0));
