/**
 * Host-wide uid claims (isolation/id-registry.ts): two daemons never hold one uid; a daemon restarted on the same
 * servers dir keeps its claims; a claim whose definition is gone (or names another uid) is taken over once it is
 * older than a create needs; a fresh claim never is. Real files in a temp dir standing in for /run.
 */
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IdAllocator } from '../../src/isolation/allocator';
import { IdRegistry } from '../../src/isolation/id-registry';

describe('host-wide server uid claims', () => {
  let base: string;
  let registry: string;
  const serversA = () => join(base, 'a', 'servers');
  const serversB = () => join(base, 'b', 'servers');
  const define = (serversDir: string, id: string, uid: number) =>
    writeFile(join(serversDir, `${id}.json`), JSON.stringify({ runAs: { uid, gid: uid } }));
  const age = (uid: number) => utimes(join(registry, String(uid)), new Date(0), new Date(0));

  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'hearth-registry-'));
    registry = join(base, 'run');
    await mkdir(serversA(), { recursive: true });
    await mkdir(serversB(), { recursive: true });
  });
  afterEach(async () => rm(base, { recursive: true, force: true }));

  it('gives two daemons on one host different uids, and a restarted daemon its own again', async () => {
    const range = { idRangeStart: 80_000, idRangeEnd: 80_009 };
    const a = new IdAllocator(range, new Set(), new IdRegistry(serversA(), registry));
    const b = new IdAllocator(range, new Set(), new IdRegistry(serversB(), registry));
    expect(a.allocate('s1').uid).toBe(80_000);
    expect(b.allocate('s1').uid).toBe(80_001);
    expect(b.claim('s2', { uid: 80_000, gid: 80_000 })).toBe(false);
    await define(serversA(), 's1', 80_000);
    const again = new IdAllocator(range, new Set(), new IdRegistry(serversA(), registry));
    expect(again.claim('s1', { uid: 80_000, gid: 80_000 })).toBe(true);
  });

  it('takes over a stale claim only once it is old, and never one whose definition still names the uid', async () => {
    const a = new IdRegistry(serversA(), registry);
    const b = new IdRegistry(serversB(), registry);
    expect(a.claim(80_100, 'gone')).toBe(true); // its definition is never written
    expect(b.claim(80_100, 'other')).toBe(false); // too fresh to be stale
    await age(80_100);
    expect(b.claim(80_100, 'other')).toBe(true);
    expect(a.claim(80_100, 'gone')).toBe(false);

    expect(a.claim(80_101, 'kept')).toBe(true);
    await define(serversA(), 'kept', 80_101);
    await age(80_101);
    expect(b.claim(80_101, 'other')).toBe(false);
    await define(serversA(), 'kept', 80_102); // the definition moved on to another uid
    expect(b.claim(80_101, 'other')).toBe(true);
  });

  it('frees a uid on release, only for its holder', async () => {
    const a = new IdRegistry(serversA(), registry);
    const b = new IdRegistry(serversB(), registry);
    expect(a.claim(80_200, 's')).toBe(true);
    b.release(80_200, 's'); // not b's: nothing happens
    expect(b.claim(80_200, 's')).toBe(false);
    a.release(80_200, 's');
    expect(b.claim(80_200, 's')).toBe(true);
  });
});
