/**
 * The panel under test for `bench:api`, in its own process: SQLite, an admin, a node served by a real daemon
 * (in this process too — its RSS is reported with the panel's), 100 servers. Prints `{port, token}` as JSON.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { parseDaemonConfig, startDaemon } from '@hearth/daemon';
import { buildTestApp, createUser } from '../../apps/panel/test/helpers/app';

const t = await buildTestApp('sqlite');
const admin = await createUser(t, { admin: true });
const created = await t.services.nodes.create({
  name: 'bench',
  publicHost: '127.0.0.1',
  publicPort: 1,
  privateHost: '127.0.0.1',
  privatePort: 1,
  sftpPort: 2,
});
const daemon = await startDaemon(
  parseDaemonConfig({
    ...created.deployment.config,
    host: '127.0.0.1',
    port: 0,
    dataDir: mkdtempSync(join(tmpdir(), 'hearth-bench-node-')),
    logLevel: 'silent',
    sftp: { ...(created.deployment.config.sftp as object), host: '127.0.0.1', port: 0 },
  }),
  pino({ level: 'silent' }),
);
await t.services.nodes.update(created.id, { privatePort: daemon.port });
for (let i = 0; i < 100; i++) {
  const id = (0x10000000 + i).toString(16);
  await t.services.serversRepo.insert(
    {
      id,
      name: `server ${String(i).padStart(3, '0')}`,
      node_id: created.id,
      ip: '',
      port: 25565 + i,
      type: 'fake',
      created_at: Date.now(),
    },
    [admin.id],
  );
}
await t.app.listen({ host: '127.0.0.1', port: 0 });
const address = t.app.server.address();
process.stdout.write(
  `${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, token: admin.token })}\n`,
);
// A clean exit on SIGTERM, so `--cpu-prof` can write its profile.
process.once('SIGTERM', () => process.exit(0));
