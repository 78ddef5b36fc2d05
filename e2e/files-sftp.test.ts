/**
 * OpenSSH's sftp client against the daemon's SFTP server, logins checked by a real panel: `email#id` on the
 * command line, `email|id` from an ssh config file, put/get/ls/mkdir/rename/rm, wrong password, a user
 * without sftpServer, a user who may view but not put, and a session ended when access is removed. A refusal
 * counts only as the client reports it ("Permission denied (password)." at login, "…: Permission denied" for
 * an operation; helpers/sftp-client.ts) or as the ssh2 client receives the server's status, and the server's
 * folder is compared before and after: a refused request leaves nothing behind.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, stat, symlink } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ssh2, { type SFTPWrapper } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalogue } from '@hearth/contract';
import { call } from '../apps/panel/test/helpers/app';
import { filesFixture, type FilesFixture } from './helpers/files-fixture';
import { expectCommandRefused, expectLoginRefused, expectSftpOk, runSftp } from './helpers/sftp-client';
import { treeState } from './helpers/tree-state';

const { PERMISSION_DENIED } = ssh2.utils.sftp.STATUS_CODE;

/** An SFTP session of the ssh2 client, which hands the test the server's own status code and message. */
function ssh2Session(
  port: number,
  username: string,
  password: string,
): Promise<{ sftp: SFTPWrapper; end: () => void }> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client
      .on('ready', () =>
        client.sftp((err, sftp) => (err ? reject(err) : resolve({ sftp, end: () => client.end() }))),
      )
      .on('error', reject)
      .connect({ host: '127.0.0.1', port, username, password });
  });
}

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
    expectSftpOk(r, 'put/mkdir/rename/ls/get');
    expect(r.stdout).toContain('moved.txt');
    expect(readFileSync(join(local, 'back.txt'), 'utf8')).toBe('from openssh\n');
    expect(await readFile(join(f.serverRoot, 'dir', 'moved.txt'), 'utf8')).toBe('from openssh\n');
    const rm = await runSftp(f.sftpPort, `${u.email}#${f.serverId}`, u.password, [
      'rm dir/moved.txt',
      'rmdir dir',
    ]);
    expectSftpOk(rm, 'rm/rmdir');
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
    expectSftpOk(r, 'email|id');
    expect(r.stdout).toContain('piped.txt');
    expect(await readFile(join(f.serverRoot, 'piped.txt'), 'utf8')).toBe('from openssh\n');
  });

  it('refuses a wrong password, a user without sftpServer and an unknown account at login; nothing written', async () => {
    const u = await f.user(full);
    const noSftp = await f.user({ viewServerFiles: true, putServerFiles: true });
    const before = await treeState(f.serverRoot);
    const attempts: Array<[string, string, string]> = [
      ['wrong password', `${u.email}#${f.serverId}`, 'not the password'],
      ['no sftpServer', `${noSftp.email}#${f.serverId}`, noSftp.password],
      ['unknown account', `nobody@example.com#${f.serverId}`, u.password],
      ['another server', `${u.email}#nosuchserver`, u.password],
    ];
    for (const [label, name, password] of attempts) {
      const r = await runSftp(f.sftpPort, name, password, ['put upload.txt', 'mkdir made'], { cwd: local });
      expectLoginRefused(r, label);
    }
    expect(await treeState(f.serverRoot)).toEqual(before);
  });

  it('lets a viewer list and download but not upload, delete, rename or mkdir; nothing changes', async () => {
    writeFileSync(join(f.serverRoot, 'readme.txt'), 'read me');
    const viewer = await f.user({ sftpServer: true, viewServerFiles: true });
    const name = `${viewer.email}#${f.serverId}`;
    const ok = await runSftp(f.sftpPort, name, viewer.password, ['ls', 'get readme.txt got.txt'], {
      cwd: local,
    });
    expectSftpOk(ok, 'viewer ls/get');
    expect(ok.stdout).toContain('readme.txt');
    expect(readFileSync(join(local, 'got.txt'), 'utf8')).toBe('read me');
    const before = await treeState(f.serverRoot);
    for (const command of [
      'put upload.txt',
      'put upload.txt readme.txt',
      'rm readme.txt',
      'rename readme.txt x.txt',
      'mkdir d',
      'chmod 777 readme.txt',
    ]) {
      const r = await runSftp(f.sftpPort, name, viewer.password, [command], { cwd: local });
      expectCommandRefused(r, command);
    }
    expect(await treeState(f.serverRoot)).toEqual(before);
  });

  it("answers a viewer's changes with the server's own refusal: PERMISSION_DENIED, the catalogue message", async () => {
    writeFileSync(join(f.serverRoot, 'readme.txt'), 'read me');
    await mkdir(join(f.serverRoot, 'keep'), { recursive: true });
    const viewer = await f.user({ sftpServer: true, viewServerFiles: true });
    const before = await treeState(f.serverRoot);
    const { sftp, end } = await ssh2Session(f.sftpPort, `${viewer.email}#${f.serverId}`, viewer.password);
    try {
      const refusal = (run: (cb: (err: Error | null | undefined) => void) => void) =>
        new Promise<{ code: unknown; message: string } | null>((resolve) =>
          run((err) =>
            resolve(err ? { code: (err as { code?: unknown }).code, message: err.message } : null),
          ),
        );
      const denied = { code: PERMISSION_DENIED, message: errorCatalogue.ErrMissingScope.message };
      const ops: Array<[string, (cb: (err: Error | null | undefined) => void) => void]> = [
        ['write', (cb) => sftp.writeFile('new.txt', 'x', cb)],
        ['overwrite', (cb) => sftp.writeFile('readme.txt', 'x', cb)],
        ['remove', (cb) => sftp.unlink('readme.txt', cb)],
        ['rename', (cb) => sftp.rename('readme.txt', 'moved.txt', cb)],
        ['mkdir', (cb) => sftp.mkdir('made', cb)],
        ['rmdir', (cb) => sftp.rmdir('keep', cb)],
        ['setstat', (cb) => sftp.setstat('readme.txt', { mode: 0o777 }, cb)],
      ];
      for (const [label, op] of ops) expect(await refusal(op), label).toEqual(denied);
      // The same session still reads: the refusals were the operations', not a broken connection's.
      expect(await refusal((cb) => sftp.readFile('readme.txt', (err) => cb(err)))).toBeNull();
    } finally {
      end();
    }
    expect(await treeState(f.serverRoot)).toEqual(before);
  });

  it('a client that cannot run or is stopped fails the test instead of reading as a refusal', async () => {
    await expect(
      runSftp(f.sftpPort, 'x#y', 'z', ['ls'], { env: { PATH: join(local, 'no-such-dir') } }),
    ).rejects.toThrow(/ENOENT/);
    // sshpass runs but finds no sftp: its own exit code (3), not the server's answer.
    const onlySshpass = mkdtempSync(join(tmpdir(), 'hearth-only-sshpass-'));
    const sshpass = execFileSync('sh', ['-c', 'command -v sshpass'], { encoding: 'utf8' }).trim();
    await symlink(sshpass, join(onlySshpass, 'sshpass'));
    await expect(runSftp(f.sftpPort, 'x#y', 'z', ['ls'], { env: { PATH: onlySshpass } })).rejects.toThrow(
      /exit 3/,
    );
    // A server that accepts the connection and never speaks: the client is killed by its timeout.
    const mute = createServer(() => undefined);
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = mute.address() as AddressInfo;
      await expect(runSftp(port, 'x#y', 'z', ['ls'], { timeoutMs: 1_000 })).rejects.toThrow(/killed/);
    } finally {
      mute.close();
    }
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
    // A client that cannot start (or dies of a signal) rejects: it must fail the test, not pass for "ended".
    const exited = new Promise<number>((resolve, reject) => {
      client.once('error', reject);
      client.once('close', (code, signal) =>
        code === null ? reject(new Error(`sftp client killed by ${signal}`)) : resolve(code),
      );
    });
    let stderr = '';
    client.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const stderrShows = (text: RegExp) =>
      Promise.race([
        new Promise<void>((resolve) => {
          const check = () => (text.test(stderr) ? resolve() : client.stderr.once('data', check));
          check();
        }),
        exited.then(() => {
          if (!text.test(stderr)) throw new Error(`the client ended before ${String(text)}: ${stderr}`);
        }),
      ]);
    try {
      client.stdin.write('pwd\n');
      await stderrShows(/Authenticated to/); // the session was open before access was removed
      await call(f.t, 'DELETE', `/api/servers/${f.serverId}/user/${encodeURIComponent(u.email)}`, {
        token: f.admin.token,
      });
      await stderrShows(/Connection closed|Disconnected from/); // ssh reports the server's end
      client.stdin.end('ls\n'); // a request on the closed connection fails the batch
      expect(await exited, stderr).toBe(255);
      expect(stderr).not.toContain('Permission denied');
    } finally {
      client.kill();
    }
  });
});
