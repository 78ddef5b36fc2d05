/**
 * Attack: a server's own process as a way into Hearth and other servers (docs/security.md § Isolation model).
 * Servers once ran as the daemon's user (root): a game could read the panel's signing key, the database and
 * every other server's files. Here a real panel and a daemon share one data dir as `hearth start` lays it out
 * (keys/, hearth.db, config.json beside servers/); two servers are created from the bundled generic-process
 * template, a script reaches one of them over OpenSSH sftp, and its main run and a task `command` step report
 * from inside: uid ≠ 0 and not the other server's, no groups, no_new_privs, none of Hearth's environment, no
 * read of the panel key, database, config or the other server's folder, its own folder writable.
 */
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDaemonConfig, startDaemon, type RunningDaemon } from '@hearth/daemon';
import { waitFor } from '../../apps/daemon/test/helpers/poll';
import { parseReport, probeScript } from '../../apps/daemon/test/isolation/probe';
import { createFirstAdmin, startTestPanel, type Account, type TestPanel } from '../helpers/panel';
import { runSftp } from '../helpers/sftp-client';

const isRoot = process.getuid?.() === 0;
if (!isRoot)
  console.warn('skipping the isolation attack: servers get uids of their own only under a root daemon');

describe.skipIf(!isRoot)('a server process cannot reach Hearth or another server', () => {
  let panel: TestPanel;
  let admin: Account;
  let daemon: RunningDaemon;
  let serversDir: string;
  let sftpPort = 0;
  const ids: Record<'probe' | 'victim', string> = { probe: '', victim: '' };
  const local = mkdtempSync(join(tmpdir(), 'hearth-isolation-client-'));

  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${panel.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${admin.session}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const sftp = (server: string, commands: string[]) =>
    runSftp(sftpPort, `${admin.email}|${server}`, admin.password, commands, { via: 'config', cwd: local });
  const secrets = () => [
    join(panel.dataDir, 'keys', 'panel-es256.key'),
    join(panel.dataDir, 'hearth.db'),
    join(panel.dataDir, 'config.json'),
    join(serversDir, ids.victim, 'secret.txt'),
  ];

  beforeAll(async () => {
    process.env.HEARTH_ISOLATION_TEST_SECRET = 'a secret in the daemon’s environment';
    panel = await startTestPanel();
    admin = await createFirstAdmin(panel);
    // `hearth start` keeps its config file beside the database; written as an editor would (0644).
    await writeFile(join(panel.dataDir, 'config.json'), '{"email":{"password":"smtp-secret"}}', {
      mode: 0o644,
    });

    const node = { name: 'isolated', publicHost: '127.0.0.1', publicPort: 1, privateHost: '127.0.0.1' };
    const { id: nodeId } = await api<{ id: string }>('POST', '/api/nodes', {
      ...node,
      privatePort: 1,
      sftpPort: 2,
    });
    const deployment = await api<{ config: Record<string, unknown>; clientSecret: string }>(
      'POST',
      `/api/nodes/${nodeId}/deployment/rotate`,
    );
    // The local node of `hearth start`: the panel's data dir is the daemon's too.
    const config = parseDaemonConfig({
      ...deployment.config,
      host: '127.0.0.1',
      port: 0,
      dataDir: panel.dataDir,
      panelUrl: panel.url,
      logLevel: 'silent',
      sftp: { host: '127.0.0.1', port: 0, clientSecret: deployment.clientSecret },
    });
    daemon = await startDaemon(config, pino({ level: 'silent' }));
    serversDir = config.serversDir ?? join(panel.dataDir, 'servers');
    sftpPort = daemon.sftpPort ?? 0;
    await api('PUT', `/api/nodes/${nodeId}`, { privatePort: daemon.port, publicPort: daemon.port });

    await api('POST', '/api/templates/import/generic-process');
    for (const name of ['victim', 'probe'] as const) {
      const body = {
        template: 'generic-process',
        name,
        node: nodeId,
        users: [],
        environment: { type: 'standard' },
        data: { command: { value: './start.sh' } },
      };
      ids[name] = (await api<{ id: string }>('POST', '/api/servers', body)).id;
      await api('POST', `/proxy/daemon/server/${ids[name]}/install?wait=true`);
    }
  }, 60_000);
  afterAll(async () => {
    delete process.env.HEARTH_ISOLATION_TEST_SECRET;
    await daemon?.close();
    await panel?.stop();
    await rm(local, { recursive: true, force: true });
  });

  it('hands files uploaded over OpenSSH sftp to the server’s own uid', async () => {
    await writeFile(join(local, 'secret.txt'), 'the victim’s world');
    expect((await sftp(ids.victim, ['put secret.txt'])).code).toBe(0);
    const targets = {
      read: secrets(),
      list: [panel.dataDir, join(panel.dataDir, 'keys'), serversDir, join(serversDir, ids.victim)],
      write: [join(serversDir, ids.victim, 'planted.txt'), join(panel.dataDir, 'planted.txt')],
      hostTmpMarker: join(local, 'absent'),
    };
    await writeFile(join(local, 'probe.sh'), probeScript(targets));
    await writeFile(join(local, 'start.sh'), '#!/bin/sh\nexec sh probe.sh run\n');
    const put = await sftp(ids.probe, ['put probe.sh', 'put start.sh', 'chmod 755 start.sh']);
    expect(put.code, put.stderr).toBe(0);
    const folder = (id: string) => stat(join(serversDir, id));
    const [probe, victim] = [await folder(ids.probe), await folder(ids.victim)];
    expect(probe.uid).not.toBe(0);
    expect(victim.uid).not.toBe(0);
    expect(probe.uid).not.toBe(victim.uid);
    expect(probe.mode & 0o777).toBe(0o700);
    for (const [id, name, owner] of [
      [ids.probe, 'start.sh', probe.uid],
      [ids.probe, 'probe.sh', probe.uid],
      [ids.victim, 'secret.txt', victim.uid],
    ] as const) {
      expect({ name, uid: (await stat(join(serversDir, id, name))).uid }).toEqual({ name, uid: owner });
    }
  });

  const expectShutOut = async (phase: string) => {
    const owner = (await stat(join(serversDir, ids.probe))).uid;
    const path = join(serversDir, ids.probe, `report-${phase}.txt`);
    const r = parseReport(await waitFor(() => readFile(path, 'utf8').catch(() => ''), `report ${phase}`));
    // The targets exist and root reads them: every "denied" is the isolation, not a missing file.
    for (const secret of secrets()) expect((await readFile(secret)).length).toBeGreaterThan(0);
    expect(r.get('uid')).toEqual([String(owner)]);
    expect(r.get('uid')).not.toEqual(['0']);
    expect(r.get('groups')).toEqual(r.get('gid'));
    expect(r.get('no-new-privs')).toEqual(['1']);
    expect(r.get('hearth-env')).toEqual(['absent']);
    expect(r.get('read-ok')).toBeUndefined();
    expect(r.get('read-denied')).toEqual(secrets());
    expect(r.get('write-ok')).toBeUndefined();
    for (const listed of r.get('list-ok') ?? []) {
      // Under bubblewrap the data dir shows only the bare path to the server's own folder.
      expect([`${panel.dataDir}:servers `, `${serversDir}:${ids.probe} `]).toContain(listed);
    }
    expect(r.get('list-denied')).toEqual(
      expect.arrayContaining([join(panel.dataDir, 'keys'), join(serversDir, ids.victim)]),
    );
    expect(r.get('own-write')).toEqual(['ok']);
  };

  it('runs the template’s process under its own uid, unable to read the panel key, database or other server', async () => {
    await api('POST', `/proxy/daemon/server/${ids.probe}/start?wait=true`);
    await expectShutOut('run');
  });

  it('runs a task’s command step the same way', async () => {
    const base = `/proxy/daemon/server/${ids.probe}/tasks`;
    const task = { name: 'probe', operations: [{ type: 'command', commands: ['sh probe.sh task'] }] };
    const { id } = await api<{ id: string }>('POST', base, task);
    await api('POST', `${base}/${id}/run`);
    await expectShutOut('task');
  });

  it('leaves the node’s data dir searchable but not listable, and the panel’s files private', async () => {
    expect((await stat(panel.dataDir)).mode & 0o777).toBe(0o711);
    expect((await stat(serversDir)).mode & 0o777).toBe(0o711);
    expect((await stat(join(panel.dataDir, 'keys'))).mode & 0o777).toBe(0o700);
    for (const file of ['hearth.db', 'config.json']) {
      expect({ file, other: (await stat(join(panel.dataDir, file))).mode & 0o077 }).toEqual({
        file,
        other: 0,
      });
    }
    expect((await stat(join(serversDir, ids.probe))).mode & 0o777).toBe(0o700);
  });
});
