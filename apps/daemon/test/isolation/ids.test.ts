/**
 * Server uids (docs/security.md "Isolation model"): concurrent creates get distinct ids from the range, kept in
 * each definition file across a daemon restart; an admin's definition write keeps them whatever its body says; a
 * delete gives them back; a second daemon on the host never gets the same ones; a definition stored before isolation existed, or with ids edited by hand to root or
 * another server's, gets fresh ones at load.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTestKeys, type TestKeys } from '../helpers/tokens';
import { startIsolatedDaemon, type IsolatedDaemon } from './isolated-daemon';
import { hearthStartLayout, type HearthLayout } from './layout';

const isRoot = process.getuid?.() === 0;
const definition = { run: { command: 'true' } };
// A block of its own, away from the low ids other test daemons take first: "the lowest free id" stays this suite's.
const start = 95_000 + Math.floor(Math.random() * 45) * 100;
const idRange = { idRangeStart: start, idRangeEnd: start + 99 };

interface RunAs {
  uid: number;
  gid: number;
}

describe.skipIf(!isRoot)('server uids', () => {
  let layout: HearthLayout;
  let keys: TestKeys;
  let d: IsolatedDaemon | null = null;

  const runAsOf = async (id: string): Promise<RunAs> =>
    (JSON.parse(await readFile(join(layout.serversDir, `${id}.json`), 'utf8')) as { runAs: RunAs }).runAs;
  const restart = async () => {
    await d?.daemon.close();
    d = await startIsolatedDaemon(layout.dataDir, keys, 'off', idRange);
    return d;
  };

  beforeAll(async () => {
    keys = await generateTestKeys();
    layout = await hearthStartLayout('hearth-ids-');
    await restart();
  });
  afterAll(async () => {
    await d?.daemon.close();
    if (layout) await rm(layout.dataDir, { recursive: true, force: true });
  });

  it('gives concurrent creates distinct ids from the range, kept across a restart', async () => {
    const daemon = await restart();
    const ids = Array.from({ length: 16 }, (_, i) => `burst-${i}`);
    const created = await Promise.all(
      ids.map((id) => daemon.request('PUT', `/daemon/server/${id}`, definition)),
    );
    expect(created.map((res) => res.status)).toEqual(ids.map(() => 200));
    const before = await Promise.all(ids.map(runAsOf));
    expect(new Set(before.map((r) => r.uid)).size).toBe(ids.length);
    for (const r of before) {
      expect(r.gid).toBe(r.uid);
      expect(r.uid).toBeGreaterThanOrEqual(idRange.idRangeStart);
      expect(r.uid).toBeLessThanOrEqual(idRange.idRangeEnd);
    }
    const again = await restart();
    expect(await Promise.all(ids.map(runAsOf))).toEqual(before);
    // After the restart a new server still gets an id nobody holds.
    expect((await again.request('PUT', '/daemon/server/after-restart', definition)).status).toBe(200);
    expect(before.map((r) => r.uid)).not.toContain((await runAsOf('after-restart')).uid);
  });

  it('refuses a second create of the same id while the first one is still being written', async () => {
    const daemon = d as IsolatedDaemon;
    const twice = await Promise.all(
      [1, 2].map(() => daemon.request('PUT', '/daemon/server/twin', definition)),
    );
    expect(twice.map((res) => res.status).sort()).toEqual([200, 409]);
  });

  it('keeps a server’s ids through an admin’s definition write, whatever its body says', async () => {
    const daemon = d as IsolatedDaemon;
    expect((await daemon.request('PUT', '/daemon/server/keeper', definition)).status).toBe(200);
    const before = await runAsOf('keeper');
    const body = { ...definition, runAs: { uid: 0, gid: 0 }, display: 'edited' };
    expect((await daemon.request('POST', '/daemon/server/keeper', body)).status).toBe(204);
    expect(await runAsOf('keeper')).toEqual(before);
    const shown = (await (await daemon.request('GET', '/daemon/server/keeper')).json()) as Record<
      string,
      unknown
    >;
    expect(shown.display).toBe('edited');
    expect(shown).not.toHaveProperty('runAs');
  });

  it('gives a deleted server’s ids to the next server', async () => {
    const daemon = d as IsolatedDaemon;
    expect((await daemon.request('PUT', '/daemon/server/leaving', definition)).status).toBe(200);
    const freed = await runAsOf('leaving');
    expect((await daemon.request('DELETE', '/daemon/server/leaving')).status).toBe(204);
    expect(existsSync(join(layout.serversDir, 'leaving'))).toBe(false);
    expect((await daemon.request('PUT', '/daemon/server/arriving', definition)).status).toBe(200);
    expect(await runAsOf('arriving')).toEqual(freed); // the lowest free id
  });

  it('never gives a second daemon on this host the ids this one holds', async () => {
    const other = await hearthStartLayout('hearth-ids-other-');
    const second = await startIsolatedDaemon(other.dataDir, keys, 'off', idRange);
    try {
      expect((await second.request('PUT', '/daemon/server/neighbour', definition)).status).toBe(200);
      const file = JSON.parse(await readFile(join(other.serversDir, 'neighbour.json'), 'utf8')) as {
        runAs: RunAs;
      };
      const ours = await Promise.all(['keeper', 'arriving', 'burst-0', 'twin'].map(runAsOf));
      expect(ours.map((r) => r.uid)).not.toContain(file.runAs.uid);
    } finally {
      await second.daemon.close();
      await rm(other.dataDir, { recursive: true, force: true });
    }
  });

  it('gives fresh ids at load to definitions without usable ones (old, root, another server’s)', async () => {
    await d?.daemon.close();
    d = null;
    const taken = await runAsOf('keeper');
    const files: Record<string, unknown> = {
      legacy: { ...definition, id: 'legacy', adminEdited: true },
      rooted: { ...definition, id: 'rooted', runAs: { uid: 0, gid: 0 } },
      outside: { ...definition, id: 'outside', runAs: { uid: 1000, gid: 1000 } },
      copycat: { ...definition, id: 'copycat', runAs: taken },
    };
    for (const [id, body] of Object.entries(files)) {
      await writeFile(join(layout.serversDir, `${id}.json`), JSON.stringify(body));
      await mkdir(join(layout.serversDir, id), { mode: 0o755 });
    }
    await restart();
    const given = await Promise.all(Object.keys(files).map(runAsOf));
    const everyone = await Promise.all(['keeper', 'arriving', 'burst-0', 'after-restart'].map(runAsOf));
    for (const r of given) {
      expect(r.uid).toBeGreaterThanOrEqual(idRange.idRangeStart);
      expect(r.uid).toBeLessThanOrEqual(idRange.idRangeEnd);
    }
    const uids = [...given, ...everyone].map((r) => r.uid);
    expect(new Set(uids).size).toBe(uids.length);
    // Of two files naming the same ids, one keeps them (the first loaded) and the other gets fresh ones.
    const holders = [await runAsOf('keeper'), await runAsOf('copycat')].filter((r) => r.uid === taken.uid);
    expect(holders).toHaveLength(1);
    expect(JSON.parse(await readFile(join(layout.serversDir, 'legacy.json'), 'utf8'))).toMatchObject({
      adminEdited: true,
    });
  });
});
