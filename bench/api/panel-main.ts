/**
 * The panel under test for `bench:api`, in its own process: SQLite, an admin, a node served by a real daemon
 * (in this process too — its RSS is reported with the panel's), 100 servers, the first also defined on the
 * daemon (for the proxied status route). Prints `{port, token, serverId}` as JSON. BENCH_API_UNCACHED=1 reads
 * every server-list page from the database: the repository's short read cache is bypassed here, in the bench
 * process, not by a switch in the product. BENCH_API_ACTIVITY=off starts the panel with the real config setting
 * `panel.activityEnabled: false` (the activity log on vs off comparison, docs/performance.md);
 * BENCH_API_ACTIVITY=unbatched writes each entry alone as the service did before it batched (for comparison).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { importPKCS8, SignJWT } from 'jose';
import { DAEMON_TOKEN_ISSUER, daemonTokenAudience, serverPermissions } from '@hearth/contract';
import { readPrivateKeyPem } from '../../apps/panel/src/lib/keys';
import { dataDir } from '../../apps/panel/src/lib/paths';
import { parseDaemonConfig, startDaemon } from '@hearth/daemon';
import { buildTestApp, createUser } from '../../apps/panel/test/helpers/app';
import type { ActivityRepository } from '../../apps/panel/src/modules/activity/activity.repository';
import { activityRowOf } from '../../apps/panel/src/modules/activity/activity.service';

const activityEnabled = process.env.BENCH_API_ACTIVITY !== 'off';
const t = await buildTestApp('sqlite', { panel: { activityEnabled } });
const admin = await createUser(t, { admin: true });
const created = await t.services.nodes.create({
  name: 'bench',
  publicHost: '127.0.0.1',
  publicPort: 1,
  privateHost: '127.0.0.1',
  privatePort: 1,
  sftpPort: 2,
  // Loopback and plain, like the local node of `hearth start` (docs/security.md § Node link).
  tlsMode: 'plain',
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
const serverId = (0x10000000).toString(16);
// The first server exists on the daemon too, so the proxied status route answers 200 (a stopped server).
const admin60s = await new SignJWT({ server: '*', perms: [...serverPermissions], admin: true })
  .setProtectedHeader({ alg: 'ES256' })
  .setIssuer(DAEMON_TOKEN_ISSUER)
  .setAudience(daemonTokenAudience(created.id))
  .setSubject('bench')
  .setIssuedAt()
  .setExpirationTime('60s')
  .sign(await importPKCS8(readPrivateKeyPem(dataDir(t.config)), 'ES256'));
const defined = await fetch(`http://127.0.0.1:${daemon.port}/daemon/server/${serverId}`, {
  method: 'PUT',
  headers: { authorization: `Bearer ${admin60s}`, 'content-type': 'application/json' },
  body: JSON.stringify({ run: { command: 'true', stop: 'stop' }, environment: { type: 'standard' } }),
});
if (!defined.ok) throw new Error(`defining the server on the daemon: HTTP ${defined.status}`);
if (process.env.BENCH_API_UNCACHED === '1') {
  const repo = t.services.serversRepo as unknown as {
    pages: { get: (k: string, read: () => unknown) => unknown };
  };
  repo.pages = { get: (_key, read) => read() };
}
if (process.env.BENCH_API_ACTIVITY === 'unbatched') {
  // For comparison only, in the bench process: each entry written alone, at once, in its own INSERT (the service
  // before it batched: docs/performance.md § Activity log on vs off).
  const service = t.services.activity;
  const repo = (service as unknown as { repo: ActivityRepository }).repo;
  service.record = async (record) => {
    const row = activityRowOf(record);
    await repo.insert(row);
    service.announce([row]);
  };
}
await t.app.listen({ host: '127.0.0.1', port: 0 });
const address = t.app.server.address();
process.stdout.write(
  `${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, token: admin.token, serverId })}\n`,
);
// A clean exit on SIGTERM, so `--cpu-prof` can write its profile.
process.once('SIGTERM', () => process.exit(0));
