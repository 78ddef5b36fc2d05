/**
 * The panel of the outbound-link console comparison, in its own process (its CPU and RSS come from /proc):
 * SQLite, one admin, two nodes — `in`, which the panel dials (inbound), and `out`, which dials the panel
 * (outbound, docs/adr/0015-outbound-node-link.md) — and a server row on each (`bench-in`, `bench-out`). Both
 * links are plain HTTP on loopback, like bench/console's proxy path, so the only difference measured is the
 * tunnel. Protocol on stdio: prints `NODES {"in":…,"out":…,"privateKeyPem":…}` (the two deployment configs; the
 * key lets the benchmark sign direct-daemon tokens), reads `PORT <inbound daemon port>`, then prints
 * `READY {"port":…,"token":…,"outId":…}`.
 */
import { createInterface } from 'node:readline';
import { buildTestApp, createUser } from '../../apps/panel/test/helpers/app';
import { readPrivateKeyPem } from '../../apps/panel/src/lib/keys';
import { dataDir } from '../../apps/panel/src/lib/paths';
import { freePort } from '../../e2e/helpers/net';

// 20 subscribers on one server at a time, one admin: above the panel's default caps (docs/configuration.md
// `web.socketsPerUser`, `web.socketsPerServer`); the headroom covers sockets of the previous round still closing.
const t = await buildTestApp('sqlite', { web: { socketsPerUser: 60, socketsPerServer: 40 } });
await t.app.listen({ host: '127.0.0.1', port: 0 });
const address = t.app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
// The outbound node's deployment config carries this URL: its daemon dials the panel here.
await t.services.settings.write({ 'panel.settings.masterUrl': `http://127.0.0.1:${port}` });
const admin = await createUser(t, { admin: true });

const node = async (name: string, link: 'inbound' | 'outbound') =>
  t.services.nodes.create({
    name,
    publicHost: '127.0.0.1',
    publicPort: 1,
    privateHost: '127.0.0.1',
    privatePort: 1,
    // An outbound node's SFTP port is the panel's relay port (unique, not the panel's own).
    sftpPort: await freePort(),
    tlsMode: 'plain',
    link,
  });
const inbound = await node('in', 'inbound');
const outbound = await node('out', 'outbound');
const privateKeyPem = readPrivateKeyPem(dataDir(t.config));
const configs = { in: inbound.deployment.config, out: outbound.deployment.config, privateKeyPem };
process.stdout.write(`NODES ${JSON.stringify(configs)}\n`);

const lines = createInterface({ input: process.stdin });
const daemonPort = await new Promise<number>((resolve) =>
  lines.on('line', (line) => line.startsWith('PORT ') && resolve(Number(line.slice(5)))),
);
await t.services.nodes.update(inbound.id, { privatePort: daemonPort });
// The benchmark creates the servers on the daemons itself; the panel only needs their rows to route the proxy.
for (const [id, nodeId] of [
  ['bench-in', inbound.id],
  ['bench-out', outbound.id],
] as const) {
  await t.services.serversRepo.insert(
    { id, name: id, node_id: nodeId, ip: '', port: null, type: 'fake', created_at: Date.now() },
    [admin.id],
  );
}
process.stdout.write(`READY ${JSON.stringify({ port, token: admin.token, outId: outbound.id })}\n`);
process.once('SIGTERM', () => process.exit(0));
