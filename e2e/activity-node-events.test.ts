/**
 * Events only a node sees reach the panel's activity log through the node outbox (docs/activity.md § Node
 * events), with a real panel, a real daemon, the fake game and OpenSSH's `sftp`:
 * - the game's process killed with SIGKILL → `server.crashed` with the signal and the last console lines, and
 *   the automatic restart, in `GET /api/servers/{id}/activity`;
 * - the panel stopped while the node crashes again and an open SFTP session uploads a file, then started again
 *   on the same database → every event recorded, each exactly once.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry, ActivityPage } from '@hearth/contract';
import { buildApp, type BuiltApp } from '../apps/panel/src/app';
import { call } from '../apps/panel/test/helpers/app';
import { filesFixture, type FilesFixture } from './helpers/files-fixture';

/** Polls `check` until it answers something, for up to `ms` (a loaded CI machine is slow, never wrong). */
async function waitFor<T>(what: string, check: () => Promise<T | undefined>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('node events in the activity log', () => {
  let f: FilesFixture;
  /** The panel as it runs now (replaced when it is restarted). */
  let panel: BuiltApp;
  let local: string;
  let restarted: BuiltApp | null = null;

  const activity = async (query: string): Promise<ActivityEntry[]> => {
    const res = await call(panel, 'GET', `/api/servers/${f.serverId}/activity?limit=200&${query}`, {
      token: f.admin.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ActivityPage>().entries;
  };
  const atLeast = (query: string, count: number) =>
    waitFor(`${count} × ${query}`, async () => {
      const found = await activity(query);
      return found.length >= count ? found : undefined;
    });
  /**
   * The game's process as this machine sees it (the pid it prints is its own inside the sandbox's pid
   * namespace): the fake game whose working folder is this server's, other than `notPid`.
   */
  const gamePid = (notPid = 0) =>
    waitFor('the game running', async () => {
      for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
        try {
          const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
          if (!argv[0]?.endsWith('node') || !argv.some((a) => a.endsWith('fake-game.mjs'))) continue;
          if (readlinkSync(`/proc/${name}/cwd`) !== f.serverRoot || Number(name) === notPid) continue;
          return Number(name);
        } catch {
          continue; // the process ended while we looked
        }
      }
      return undefined;
    });
  /** Waits until the console shows the game's ready line `count` times (each start prints it once). */
  const readyLines = (count: number) =>
    waitFor(`${count} ready lines`, async () => {
      const res = await call(panel, 'GET', `/proxy/daemon/server/${f.serverId}/console`, {
        token: f.admin.token,
      });
      return res.statusCode === 200 && (res.body.match(/fake-game ready/g) ?? []).length >= count
        ? true
        : undefined;
    });
  const outboxDir = () => join(f.serverRoot, '..', '..', 'events');

  beforeAll(async () => {
    // The SFTP re-check is slow here: the open session must outlive the panel's downtime.
    f = await filesFixture('sqlite', { recheckMs: 10 * 60_000 });
    panel = f.t;
    local = mkdtempSync(join(tmpdir(), 'hearth-node-events-'));
    writeFileSync(join(local, 'upload.txt'), 'uploaded while the panel was down\n');
  });
  afterAll(async () => {
    if (local) rmSync(local, { recursive: true, force: true });
    if (restarted) {
      await f?.daemon.close();
      await restarted.app.close();
      await f.t.db.close();
      await f.t.testDb.drop();
    } else await f?.close();
  });

  it('records a SIGKILL crash with its signal and last console lines, and the automatic restart', async () => {
    const started = await call(panel, 'POST', `/proxy/daemon/server/${f.serverId}/start?wait=true`, {
      token: f.admin.token,
    });
    expect(started.statusCode, started.body).toBeLessThan(300);
    await readyLines(1);
    const pid = await gamePid();
    process.kill(pid, 'SIGKILL');
    const [crash] = await atLeast('action=server.crashed', 1);
    expect(crash).toMatchObject({
      action: 'server.crashed',
      actorType: 'system',
      serverId: f.serverId,
      nodeId: f.nodeId,
    });
    // The sandbox reports the kill as the signal, or as the shell convention 128 + 9.
    const { signal, exitCode } = crash?.details ?? {};
    expect(signal === 'SIGKILL' || exitCode === 137, JSON.stringify(crash?.details)).toBe(true);
    const lines = crash?.details.lines as string[];
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(50);
    expect(lines.join('\n')).toContain('fake-game ready');
    expect(lines.join('\n')).toContain('Server exited with');
    await atLeast('action=server.restarted.auto', 1);
    await gamePid(pid); // back up (autorecover), for the next test
  });

  it('keeps what happens while the panel is stopped and records it once when it is back', async () => {
    const user = await f.user({ sftpServer: true, viewServerFiles: true, putServerFiles: true });
    await readyLines(2);
    const pid = await gamePid();
    // Commands come from stdin: the session opens now and uploads only once the panel is down.
    const client = spawn('sshpass', [
      '-p',
      user.password,
      'sftp',
      ...['-oStrictHostKeyChecking=no', '-oUserKnownHostsFile=/dev/null', '-oPubkeyAuthentication=no'],
      ...['-oBatchMode=no', '-oLogLevel=VERBOSE', '-P', String(f.sftpPort), '-b', '-'],
      `${user.email}#${f.serverId}@127.0.0.1`,
    ]);
    const exited = new Promise<number>((resolve, reject) => {
      client.once('error', reject);
      client.once('close', (code, signal) =>
        code === null ? reject(new Error(`sftp client killed by ${signal}`)) : resolve(code),
      );
    });
    let stderr = '';
    client.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    client.stdout.resume();
    await waitFor('the SFTP login', async () => (/Authenticated to/.test(stderr) ? true : undefined));
    await atLeast('action=sftp.session.opened', 1);

    // The panel stops; the node goes on: a crash and an upload happen with nobody to pull them.
    const port = Number(new URL(f.panelUrl).port);
    await panel.app.close();
    process.kill(pid, 'SIGKILL');
    client.stdin.end(`put ${join(local, 'upload.txt')} /uploaded.txt\nbye\n`);
    expect(await exited, stderr).toBe(0);
    await stat(join(f.serverRoot, 'uploaded.txt'));
    // Both are in the node's outbox before the panel comes back (its log is the node's own file).
    await waitFor('the events in the outbox', async () => {
      const log = await readFile(join(outboxDir(), 'outbox.jsonl'), 'utf8').catch(() => '');
      return log.includes('"sftp.session.closed"') && (log.match(/"server\.crashed"/g) ?? []).length >= 1
        ? true
        : undefined;
    });

    // The panel starts again on the same database and port.
    restarted = await buildApp(f.t.config, { db: f.t.db });
    await restarted.app.listen({ host: '127.0.0.1', port });
    panel = restarted;

    const crashes = await atLeast('action=server.crashed', 2);
    const writes = await atLeast('action=sftp.file.write', 1);
    await atLeast('action=sftp.session.closed', 1);
    // Recorded and acknowledged: the node trimmed its outbox, so nothing more can come in for these.
    await waitFor('the outbox acknowledged', async () => {
      const log = await readFile(join(outboxDir(), 'outbox.jsonl'), 'utf8');
      return log.includes('"server.crashed"') || log.includes('"sftp.') ? undefined : true;
    });
    const again = await activity('action=server.crashed');
    expect(again).toHaveLength(crashes.length);
    expect(crashes).toHaveLength(2);
    expect(await activity('action=sftp.file.write')).toHaveLength(1);
    expect(writes[0]).toMatchObject({
      actorType: 'user',
      actorId: (user as { id?: string }).id,
      actorLabel: user.email,
      ip: '127.0.0.1',
      serverId: f.serverId,
      details: { path: '/uploaded.txt' },
    });
    expect(JSON.stringify(writes)).not.toContain('uploaded while the panel was down');
    expect(await activity('action=sftp.session.opened')).toHaveLength(1);
    expect(await activity('action=sftp.session.closed')).toHaveLength(1);
  });
});
