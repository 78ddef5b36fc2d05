/**
 * The docker hand-over of a server folder (environment/docker/user.ts → filesystem/chown-tree.ts, the walk the
 * isolation's hand-over uses too) re-owns the tree through descriptors: links inside it are re-owned themselves,
 * a file hard-linked from outside is left alone, and a folder swapped for a link to the outside while the walk
 * runs never makes it touch anything outside. Needs root (chown to other users).
 */
import { chown, link, lstat, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handOver } from '../../src/environment/docker/user';

const isRoot = process.getuid?.() === 0;
const stranger = { uid: 4_242, gid: 4_243 };
const container = { uid: 1_000, gid: 1_000 };

if (!isRoot) {
  console.warn('chown-tree: skipped, needs root to chown to other users');
  it.runIf(process.env.CI === 'true')('runs as root in CI', () => expect(isRoot).toBe(true));
}

describe.runIf(isRoot)('chown walk through descriptors', () => {
  let base: string;
  let root: string;
  let outside: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'hearth-chown-'));
    root = join(base, 'server');
    outside = join(base, 'outside');
    await mkdir(join(root, 'world', 'region'), { recursive: true });
    await writeFile(join(root, 'world', 'region', 'r.0.0.mca'), 'x');
    await writeFile(join(root, 'server.properties'), 'x');
    await mkdir(outside);
    await writeFile(join(outside, 'secret'), 'x');
    await chown(outside, stranger.uid, stranger.gid);
    await chown(join(outside, 'secret'), stranger.uid, stranger.gid);
  });
  afterEach(async () => rm(base, { recursive: true, force: true }));

  const ownerOf = async (path: string) => {
    const info = await lstat(path);
    return { uid: info.uid, gid: info.gid };
  };

  it('re-owns every entry, links themselves and never their targets; a hard link is left alone', async () => {
    await symlink(join(outside, 'secret'), join(root, 'file-link'));
    await symlink(outside, join(root, 'world', 'dir-link'));
    // The same inode as outside/secret: re-owning it would re-own the file outside.
    await link(join(outside, 'secret'), join(root, 'hard-link'));
    await handOver(root, container);
    for (const path of [
      root,
      join(root, 'server.properties'),
      join(root, 'world'),
      join(root, 'world', 'region', 'r.0.0.mca'),
      join(root, 'file-link'),
      join(root, 'world', 'dir-link'),
    ])
      expect(await ownerOf(path), path).toEqual(container);
    expect(await ownerOf(join(root, 'hard-link'))).toEqual(stranger);
    expect(await ownerOf(outside)).toEqual(stranger);
    expect(await ownerOf(join(outside, 'secret'))).toEqual(stranger);
  });

  it('a folder swapped for a link to the outside mid-walk leads nowhere outside', async () => {
    // Many folders, so the walk is in flight while the swapper flips `world` between a folder and a link.
    for (let i = 0; i < 100; i += 1) {
      await writeFile(join(root, 'world', `f${i}`), 'x');
      await writeFile(join(outside, `o${i}`), 'x');
      await chown(join(outside, `o${i}`), stranger.uid, stranger.gid);
    }
    // The swapper is its own process, so the swaps really interleave with the walk's system calls.
    const swapper = spawn(
      'sh',
      [
        '-c',
        'while :; do mv world world.real; ln -s "$1" world; rm world; mv world.real world; done',
        'sh',
        outside,
      ],
      { cwd: root, stdio: 'ignore' },
    );
    try {
      for (let round = 0; round < 100; round += 1) {
        const owner = round % 2 === 0 ? container : { uid: 1_001, gid: 1_001 };
        await handOver(root, owner).catch((err: unknown) => {
          // A folder that vanished between readdir and open is skipped; any other failure is a defect.
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        });
      }
    } finally {
      swapper.kill('SIGKILL');
      await once(swapper, 'exit');
    }
    expect(await ownerOf(outside)).toEqual(stranger);
    for (const name of await readdir(outside))
      expect(await ownerOf(join(outside, name)), name).toEqual(stranger);
  });
});
