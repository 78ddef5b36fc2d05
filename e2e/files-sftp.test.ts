/**
 * OpenSSH's sftp client against the daemon's SFTP server, logins checked by a real panel: `email#id` on the
 * command line, `email|id` from an ssh config file, put/get/ls/mkdir/rename/rm, wrong password, a user
 * without sftpServer, a user who may view but not put, and a session ended when access is removed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/panel/test/helpers/app';
import { filesFixture, runSftp, type FilesFixture } from './helpers/files-fixture';

const full = {
  sftpServer: true,
  viewServerFiles: true,
  putServerFiles: true,
};

describe('SFTP with OpenSSH', () => {
  let f: FilesFixture;
  let local: string;
  beforeAll(async () => {
    f = await filesFixture();
    local = mkdtempSync(join(tmpdir(), 'hearth-sftp-local-'));
    writeFileSync(join(local, 'upload.txt'), 'from openssh\n');
  });
  afterAll(async () => {
    await f?.close();
  });

  it('logs in as email#id on the command line; put, ls, mkdir, rename, get, rm', async () => {
    const u = await f.user(full);
    const r = await runSftp(
      f.sftpPort,
      `${u.email}#${f.serverId}`,
      u.password,
      [
        'put upload.txt',
        'mkdir dir',
        'rename upload.txt dir/moved.txt',
        'ls -l dir',
        'get dir/moved.txt back.txt',
        'pwd',
      ],
      { cwd: local },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('moved.txt');
    expect(readFileSync(join(local, 'back.txt'), 'utf8')).toBe('from openssh\n');
    expect(await readFile(join(f.serverRoot, 'dir', 'moved.txt'), 'utf8')).toBe('from openssh\n');
    const rm = await runSftp(f.sftpPort, `${u.email}#${f.serverId}`, u.password, [
      'rm dir/moved.txt',
      'rmdir dir',
    ]);
    expect(rm.code, rm.stderr).toBe(0);
    await expect(stat(join(f.serverRoot, 'dir'))).rejects.toThrow();
  });

  it('logs in as email|id from an ssh config file', async () => {
    const u = await f.user(full);
    const r = await runSftp(
      f.sftpPort,
      `${u.email}|${f.serverId}`,
      u.password,
      ['put upload.txt piped.txt', 'ls'],
      {
        via: 'config',
        cwd: local,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('piped.txt');
  });

  it('refuses a wrong password and a user without sftpServer', async () => {
    const u = await f.user(full);
    const wrong = await runSftp(f.sftpPort, `${u.email}#${f.serverId}`, 'not the password', ['ls']);
    expect(wrong.code).not.toBe(0);
    const noSftp = await f.user({ viewServerFiles: true, putServerFiles: true });
    const refused = await runSftp(f.sftpPort, `${noSftp.email}#${f.serverId}`, noSftp.password, ['ls']);
    expect(refused.code).not.toBe(0);
  });

  it('lets a viewer list and download but not upload, delete or rename', async () => {
    writeFileSync(join(f.serverRoot, 'readme.txt'), 'read me');
    const viewer = await f.user({ sftpServer: true, viewServerFiles: true });
    const name = `${viewer.email}#${f.serverId}`;
    const ok = await runSftp(f.sftpPort, name, viewer.password, ['ls', 'get readme.txt got.txt'], {
      cwd: local,
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(readFileSync(join(local, 'got.txt'), 'utf8')).toBe('read me');
    for (const command of ['put upload.txt', 'rm readme.txt', 'rename readme.txt x.txt', 'mkdir d']) {
      const r = await runSftp(f.sftpPort, name, viewer.password, [command], { cwd: local });
      expect(r.code, command).not.toBe(0);
    }
    expect(await readFile(join(f.serverRoot, 'readme.txt'), 'utf8')).toBe('read me');
  });

  it('ends an open session when the user loses access', async () => {
    const u = await f.user(full);
    // Commands come from stdin, so the session stays open (however fast it answers) until the server ends it
    // after the re-check (every 500 ms here) finds the access gone. Progress is read from ssh's stderr.
    const client = spawn('sshpass', [
      '-p',
      u.password,
      'sftp',
      ...['-oStrictHostKeyChecking=no', '-oUserKnownHostsFile=/dev/null', '-oPubkeyAuthentication=no'],
      ...['-oBatchMode=no', '-oLogLevel=VERBOSE', '-P', String(f.sftpPort), '-b', '-'],
      `${u.email}#${f.serverId}@127.0.0.1`,
    ]);
    const exited = new Promise<number | null>((resolve) => client.once('close', resolve));
    let stderr = '';
    client.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const stderrShows = (text: RegExp) =>
      new Promise<void>((resolve) => {
        const check = () => (text.test(stderr) ? resolve() : client.stderr.once('data', check));
        check();
      });
    try {
      client.stdin.write('pwd\n');
      await Promise.race([stderrShows(/Authenticated to/), exited]);
      await call(f.t, 'DELETE', `/api/servers/${f.serverId}/user/${encodeURIComponent(u.email)}`, {
        token: f.admin.token,
      });
      await Promise.race([stderrShows(/Disconnected from|closed/), exited]); // ssh reports the server's end
      client.stdin.end('ls\n'); // a request on the closed connection fails the batch
      expect(await exited, stderr).not.toBe(0);
      expect(stderr).toContain('Authenticated to'); // the session was open before access was removed
    } finally {
      client.kill();
    }
  });
});
