/**
 * The panel for the console-through-proxy comparison, in its own process (its CPU and RSS come from /proc):
 * SQLite, one admin, the node the benchmark's daemon serves and the `bench` server on it. Protocol on stdio:
 * prints `NODE {"config":…,"privateKeyPem":…}` (the daemon's deployment config; the key lets the benchmark
 * sign its own long-lived direct-daemon tokens), reads `PORT <daemon port>`, then prints
 * `READY {"port":…,"token":…}` (the panel's port and an admin session token).
 */
import { createInterface } from 'node:readline';
import { buildTestApp, createUser } from '../../apps/panel/test/helpers/app';
import { readPrivateKeyPem } from '../../apps/panel/src/lib/keys';
import { dataDir } from '../../apps/panel/src/lib/paths';

// 20 subscribers of one admin on one server: above the panel's default caps (docs/configuration.md
// `web.socketsPerUser`, `web.socketsPerServer`), at the daemon's own 20 per server.
const t = await buildTestApp('sqlite', { web: { socketsPerUser: 20, socketsPerServer: 20 } });
const admin = await createUser(t, { admin: true });
const node = await t.services.nodes.create({
  name: 'bench',
  publicHost: '127.0.0.1',
  publicPort: 1,
  privateHost: '127.0.0.1',
  privatePort: 1,
  sftpPort: 2,
  // Loopback, like the local node of `hearth start`: the benchmark's direct clients speak plain HTTP to the
  // daemon, and the proxied path is compared with them on the same footing (docs/security.md § Node link).
  tlsMode: 'plain',
});
const privateKeyPem = readPrivateKeyPem(dataDir(t.config));
process.stdout.write(`NODE ${JSON.stringify({ config: node.deployment.config, privateKeyPem })}\n`);

const lines = createInterface({ input: process.stdin });
const daemonPort = await new Promise<number>((resolve) =>
  lines.on('line', (line) => line.startsWith('PORT ') && resolve(Number(line.slice(5)))),
);
await t.services.nodes.update(node.id, { privatePort: daemonPort });
// The benchmark creates `bench` on the daemon itself; the panel only needs its row to route the proxy.
await t.services.serversRepo.insert(
  { id: 'bench', name: 'bench', node_id: node.id, ip: '', port: null, type: 'fake', created_at: Date.now() },
  [admin.id],
);
await t.app.listen({ host: '127.0.0.1', port: 0 });
const address = t.app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(`READY ${JSON.stringify({ port, token: admin.token, nodeId: node.id })}\n`);
// A clean exit on SIGTERM (the sockets close with it).
process.once('SIGTERM', () => process.exit(0));
