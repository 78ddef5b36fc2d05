/**
 * Files of a server belong to its uid (docs/security.md "Isolation model"): everything the sandbox creates — the
 * SFTP path (open with O_CREAT), atomic writes (uploads, processors, archives), folders — is fchown'ed at
 * creation; the walk before each start hands over the rest without following a planted symlink, and leaves
 * device nodes and files hard-linked from elsewhere alone. Real files, as root.
 */
import { execFileSync, spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { link, lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/filesystem/sandbox';
import { handFolderTo } from '../../src/isolation/ownership';
import { killProcessesOf } from '../../src/isolation/reap';
import { waitFor } from '../helpers/poll';

const isRoot = process.getuid?.() === 0;
const owner = { uid: 71_234, gid: 71_234 };

describe.skipIf(!isRoot)('server file ownership', () => {
  let base: string;
  let root: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'hearth-owner-'));
    root = join(base, 'server');
    await mkdir(root);
  });
  afterEach(async () => rm(base, { recursive: true, force: true }));

  const ownerOf = async (path: string) => {
    const info = await lstat(path);
    return { uid: info.uid, gid: info.gid };
  };

  it('hands everything the sandbox creates to the server', async () => {
    const sandbox = new Sandbox(root, () => owner);
    const sftp = await sandbox.open(
      'sftp.bin',
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      0o600,
    );
    await sftp.close();
    await sandbox.writeAtomic('deep/er/file.txt', 'atomic');
    await sandbox.mkdir('made');
    await sandbox.mkdirp('a/b/c');
    for (const path of ['sftp.bin', 'deep', 'deep/er', 'deep/er/file.txt', 'made', 'a', 'a/b', 'a/b/c']) {
      expect({ path, ...(await ownerOf(join(root, path))) }).toEqual({ path, ...owner });
    }
  });

  it('leaves ownership alone without an owner (a daemon that is not root)', async () => {
    const sandbox = new Sandbox(root);
    await sandbox.writeAtomic('plain.txt', 'x');
    expect(await ownerOf(join(root, 'plain.txt'))).toEqual({ uid: 0, gid: 0 });
  });

  it('re-owns an existing file opened for writing over SFTP, unless it is hard-linked from elsewhere', async () => {
    const outside = join(base, 'outside.txt');
    await writeFile(outside, 'not the server’s');
    await writeFile(join(root, 'old.txt'), 'root’s');
    await link(outside, join(root, 'linked.txt'));
    const sandbox = new Sandbox(root, () => owner);
    for (const name of ['old.txt', 'linked.txt']) {
      await (await sandbox.open(name, constants.O_WRONLY | constants.O_CREAT)).close();
    }
    expect(await ownerOf(join(root, 'old.txt'))).toEqual(owner);
    expect(await ownerOf(outside)).toEqual({ uid: 0, gid: 0 });
  });

  it('hands the folder over before a start without following links, devices or outside hard links', async () => {
    const outside = join(base, 'secret');
    await writeFile(outside, 'host file');
    await mkdir(join(base, 'outside-dir'));
    await mkdir(join(root, 'world/region'), { recursive: true });
    await writeFile(join(root, 'world/region/r.0.0.mca'), 'chunk');
    await symlink(outside, join(root, 'escape'));
    await symlink(join(base, 'outside-dir'), join(root, 'world/dir-escape'));
    await link(outside, join(root, 'hardlink'));
    execFileSync('mknod', [join(root, 'null-device'), 'c', '1', '3']);
    execFileSync('mkfifo', [join(root, 'pipe')]);

    await handFolderTo(root, owner);

    const folder = await stat(root);
    expect({ uid: folder.uid, mode: folder.mode & 0o777 }).toEqual({ uid: owner.uid, mode: 0o700 });
    for (const path of [
      'world',
      'world/region',
      'world/region/r.0.0.mca',
      'escape',
      'world/dir-escape',
      'pipe',
    ]) {
      expect({ path, ...(await ownerOf(join(root, path))) }).toEqual({ path, ...owner });
    }
    expect(await ownerOf(outside)).toEqual({ uid: 0, gid: 0 }); // neither the link's target nor the hard link
    expect(await ownerOf(join(base, 'outside-dir'))).toEqual({ uid: 0, gid: 0 });
    expect(await ownerOf(join(root, 'null-device'))).toEqual({ uid: 0, gid: 0 });
  });

  it('kills what still runs under a deleted server’s uid before the uid is given again', async () => {
    const child = spawn(
      'setpriv',
      [`--reuid=${owner.uid}`, `--regid=${owner.gid}`, '--clear-groups', '--', 'sleep', '600'],
      {
        detached: true, // its own session, as a daemonizing game would be: a group kill does not reach it
        stdio: 'ignore',
      },
    );
    const ended = new Promise((done) => child.once('exit', (_code, signal) => done(signal)));
    await waitFor(async () => {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      return status.includes(`Uid:\t${owner.uid}`);
    }, 'the process runs as the server uid');
    expect(await killProcessesOf(owner.uid)).toBeGreaterThanOrEqual(1);
    expect(await ended).toBe('SIGKILL');
  });
});
