/**
 * What the next daemon does with run records it cannot adopt (docs/daemon.md § Supervision): stale ones
 * (process gone, pid reused by another process, a previous boot, garbage) are removed without touching any
 * process; a server deleted while the daemon was down has its process killed; a game whose holder was killed
 * is killed (never a second, unsupervised copy) and reported; an install command left running is killed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootId, startTimeOf } from '../../src/environment/holder/proc';
import { readState } from '../../src/environment/holder/run-dir';
import { waitFor } from '../helpers/poll';
import { COUNTER_GAME, counterGameDefinition, DaemonChild } from './daemon-child';
import { gamePid, pidsWith, running } from './processes';

const tag = (id: string) => `--tag ${id}-${process.pid}`;

/** Connects to `sock` as uid/gid 65534 (nobody); what happened: an error code or how the holder answered. */
function asNobody(sock: string): string {
  const script = `const s = require('node:net').connect(process.argv[1]); let n = 0;
    s.on('data', (c) => (n += c.length)); s.on('error', (e) => { console.log(e.code); process.exit(0); });
    s.on('close', () => console.log('closed after ' + n + ' bytes'));`;
  const setpriv = ['--reuid=65534', '--regid=65534', '--clear-groups', '--'];
  const run = spawnSync('setpriv', [...setpriv, process.execPath, '-e', script, sock], { encoding: 'utf8' });
  return run.stdout.trim();
}

async function writeRecord(d: DaemonChild, id: string, text: string): Promise<void> {
  await mkdir(d.runDirOf(id), { recursive: true, mode: 0o700 });
  await writeFile(join(d.runDirOf(id), 'state'), text);
}

function record(pid: number, start: number, boot: string): string {
  return `hearth-holder 1\nrole main\nmode pipe\nboot ${boot}\nholder ${pid} ${start}\ngame ${pid} ${start}\nstarted 1\n`;
}

describe('run records the next daemon cannot adopt', { timeout: 120_000 }, () => {
  let d: DaemonChild;
  beforeAll(async () => {
    d = await DaemonChild.create();
    await d.start();
  });
  afterAll(() => d?.cleanup());

  const put = async (id: string, definition: unknown) =>
    expect((await d.request('PUT', `/daemon/server/${id}`, definition)).status).toBe(200);
  const status = async (id: string) =>
    (await (await d.request('GET', `/daemon/server/${id}/status`)).json()) as { running: boolean };

  it('removes stale records without touching the processes they name; a start then runs one copy', async () => {
    for (const id of ['stale-dead', 'stale-reused', 'stale-boot', 'stale-garbage']) {
      await put(id, counterGameDefinition('standard', tag(id)));
    }
    await d.stop('SIGKILL');
    const dead = spawnSync('true').pid ?? 0; // ended and reaped: its pid names nothing (or something else)
    const self = (await startTimeOf(process.pid)) ?? 0;
    await writeRecord(d, 'stale-dead', record(dead, 1, await bootId()));
    await writeRecord(d, 'stale-reused', record(process.pid, self + 1, await bootId())); // our pid, another start
    await writeRecord(d, 'stale-boot', record(process.pid, self, 'another-boot')); // our very process, a past boot
    await writeRecord(d, 'stale-garbage', 'not a record\n');

    await d.start();
    for (const id of ['stale-dead', 'stale-reused', 'stale-boot', 'stale-garbage']) {
      expect(await status(id)).toMatchObject({ running: false });
      expect(existsSync(d.runDirOf(id))).toBe(false);
    }
    expect(await running(process.pid, self)).toBe(true); // named by two records, never signalled
    const socket = await d.socket('stale-garbage');
    socket.send({ type: 'replay', since: 0 });
    await socket.waitForConsole('An unreadable run record of a previous daemon was removed');
    socket.close();

    expect((await d.request('POST', '/daemon/server/stale-reused/start?wait=true')).status).toBe(204);
    expect(await gamePid(tag('stale-reused'))).toBeGreaterThan(0); // exactly one (waits for it to exist)
    expect((await d.request('POST', '/daemon/server/stale-reused/stop?wait=true')).status).toBe(204);
  });

  it('kills the process of a server deleted while the daemon was down, and an orphan whose holder was killed', async () => {
    await put('gone', counterGameDefinition('standard', tag('gone')));
    await put('orphan', counterGameDefinition('standard', tag('orphan')));
    for (const id of ['gone', 'orphan']) {
      expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
    }
    const gone = await gamePid(tag('gone'));
    const orphan = await gamePid(tag('orphan'));
    const holder = await readState(d.runDirOf('orphan'));
    if (!holder || holder === 'invalid') throw new Error('no record of the orphan');
    await d.stop('SIGKILL');
    await rm(join(d.dataDir, 'servers', 'gone.json'));
    process.kill(holder.holder.pid, 'SIGKILL'); // the game lives on without its holder
    await waitFor(async () => !(await running(holder.holder.pid, holder.holder.start)), 'the holder to die');
    expect(await pidsWith(tag('orphan'))).toEqual([orphan]);

    await d.start();
    expect(await pidsWith(tag('gone'))).toEqual([]);
    expect(existsSync(d.runDirOf('gone'))).toBe(false);
    expect(await pidsWith(tag('orphan'))).toEqual([]);
    expect(await status('orphan')).toMatchObject({ running: false });
    const socket = await d.socket('orphan');
    socket.send({ type: 'replay', since: 0 });
    await socket.waitForConsole(
      /The server's holder was gone; its process \(pid \d+\) was killed so it never runs twice[^]*Server exited with signal SIGKILL/,
    );
    socket.close();
    expect(gone).not.toBe(orphan);
  });

  it('never starts a second copy beside a living holder it cannot reach', async () => {
    await put('unreachable', counterGameDefinition('standard', tag('unreachable')));
    expect((await d.request('POST', '/daemon/server/unreachable/start?wait=true')).status).toBe(204);
    const pid = await gamePid(tag('unreachable'));
    await d.stop('SIGKILL');
    await rm(join(d.runDirOf('unreachable'), 'sock')); // the holder lives on, but nobody can connect to it

    await d.start();
    const socket = await d.socket('unreachable');
    socket.send({ type: 'replay', since: 0 });
    await socket.waitForConsole(`Cannot re-attach to the running server (pid `);
    socket.close();
    const refused = await d.request('POST', '/daemon/server/unreachable/start?wait=true');
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: { code: 'ErrServerRunning' } });
    expect(await pidsWith(tag('unreachable'))).toEqual([pid]);
    process.kill(pid, 'SIGKILL'); // the operator ends it by hand; then the record is stale and a start works
    await waitFor(async () => (await pidsWith(tag('unreachable'))).length === 0, 'the game gone');
    await waitFor(async () => {
      const res = await d.request('POST', '/daemon/server/unreachable/start?wait=true');
      return res.status === 204;
    }, 'a start once the holder has ended');
    expect(await gamePid(tag('unreachable'))).not.toBe(pid);
    expect((await d.request('POST', '/daemon/server/unreachable/kill?wait=true')).status).toBe(204);
  });

  it("lets only the daemon's user talk to a holder; a lost link never kills the game", async () => {
    const id = 'guarded';
    await put(id, counterGameDefinition('standard', tag(id)));
    expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
    const pid = await gamePid(tag(id));
    const sock = join(d.runDirOf(id), 'sock');
    // Another uid (a server's, say) cannot even reach the socket: the run directories are 0700.
    expect(asNobody(sock)).toBe('EACCES');
    // With the directories opened up by mistake, the holder itself refuses another uid (SO_PEERCRED).
    await chmod(join(d.dataDir, 'run'), 0o711);
    await chmod(d.runDirOf(id), 0o711);
    await chmod(sock, 0o777);
    expect(asNobody(sock)).toBe('closed after 0 bytes');
    await chmod(d.runDirOf(id), 0o700);
    await chmod(join(d.dataDir, 'run'), 0o700);
    expect(
      (await d.request('POST', `/daemon/server/${id}/console`, { command: 'still linked' })).status,
    ).toBe(204);
    const socket = await d.socket(id);
    socket.send({ type: 'replay', since: 0 });
    await socket.waitForConsole('echo: still linked');

    // Root taking the link over (a second daemon on the same data, say): the daemon loses it, the game lives on.
    const thief = connect(sock);
    let replay = '';
    thief.on('data', (chunk: Buffer) => (replay += chunk.toString()));
    await waitFor(() => replay.includes('echo: still linked'), 'the replay to the new connection');
    await socket.waitForConsole('Server exited with signal SIGKILL');
    expect(await pidsWith(tag(id))).toEqual([pid]);
    const refused = await d.request('POST', `/daemon/server/${id}/start?wait=true`);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: { code: 'ErrServerRunning' } });
    thief.destroy();
    socket.close();
    await d.stop('SIGKILL'); // the next daemon re-adopts it
    await d.start();
    expect(await status(id)).toMatchObject({ running: true });
    expect((await d.request('POST', `/daemon/server/${id}/stop?wait=true`)).status).toBe(204);
    expect(await pidsWith(tag(id))).toEqual([]);
  });

  it('kills an install command the previous daemon left running', async () => {
    const install = [
      { type: 'command', commands: [`${process.execPath} ${COUNTER_GAME} ${tag('installing')}`] },
    ];
    await put('installing', { ...counterGameDefinition('standard', tag('main')), install });
    expect((await d.request('POST', '/daemon/server/installing/install')).status).toBe(202);
    await gamePid(tag('installing'));
    await d.stop('SIGKILL');
    await d.start();
    expect(await pidsWith(tag('installing'))).toEqual([]);
    expect(await status('installing')).toMatchObject({ running: false, installing: false });
    expect(existsSync(d.runDirOf('installing'))).toBe(false);
    const socket = await d.socket('installing');
    socket.send({ type: 'replay', since: 0 });
    await socket.waitForConsole('An install command left by the previous daemon was killed');
    socket.close();
  });

  it('keeps run records and the holder program to the daemon’s user (0700)', async () => {
    await put('modes', counterGameDefinition('standard', tag('modes')));
    expect((await d.request('POST', '/daemon/server/modes/start?wait=true')).status).toBe(204);
    for (const dir of [join(d.dataDir, 'run'), d.runDirOf('modes'), join(d.dataDir, 'run', '.bin')]) {
      const info = statSync(dir);
      expect(info.mode & 0o777).toBe(0o700);
      expect(info.uid).toBe(process.getuid?.());
    }
    expect((await d.request('POST', '/daemon/server/modes/stop?wait=true')).status).toBe(204);
  });
});
