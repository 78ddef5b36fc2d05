/**
 * The history store's files under bad input and crashes (docs/daemon.md § Metric history): a ring file that is
 * not one is ignored, a torn journal tail is dropped and never shifts later records, a compaction interrupted
 * before the journal was emptied replays to the same history, and ranges answer gaps as null.
 */
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeSeries, FILE_BYTES, RECORD_BYTES } from '../../src/history/codec';
import { NO_PLAYERS, Series, type Point } from '../../src/history/series';
import { COMPACT_AFTER, HistoryStore } from '../../src/history/store';

const MINUTE = 60_000;
const base = 29_000_000; // a minute number in 2025
const point = (cpu: number, players = NO_PLAYERS, maxPlayers = NO_PLAYERS): Point => ({
  cpu,
  memory: cpu * 1e6,
  disk: 5e9,
  players,
  maxPlayers,
});

describe('history store', () => {
  let dir: string;
  let store: HistoryStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-history-'));
    store = new HistoryStore(dir);
    await store.init();
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('answers each range with gaps as null and the minute in progress as the newest point', async () => {
    await store.record('s1', base, point(10, 3, 8));
    await store.record('s1', base + 2, point(30));
    const now = (base + 3) * MINUTE + 5_000;
    const h = await store.read('s1', '1h', now, point(50));
    expect(h.times).toHaveLength(60);
    expect(h.times.at(-1)).toBe((base + 3) * MINUTE);
    expect(h.cpu.slice(-4)).toEqual([10, null, 30, 50]);
    expect(h.players.slice(-4)).toEqual([3, null, null, null]);
    expect(h.maxPlayers.slice(-4)).toEqual([8, null, null, null]);
  });

  it('folds fifteen minutes into one point: usage averaged, players at their peak', async () => {
    const quarterStart = Math.ceil(base / 15) * 15;
    await store.record('s1', quarterStart, point(10, 2, 10));
    await store.record('s1', quarterStart + 1, point(20, 5, 10));
    await store.record('s1', quarterStart + 2, point(60));
    const h = await store.read('s1', '7d', (quarterStart + 20) * MINUTE, null);
    expect(h.stepSeconds).toBe(900);
    expect(h.times).toHaveLength(672);
    const i = h.times.indexOf(quarterStart * MINUTE);
    expect(h.cpu[i]).toBe(30);
    expect(h.players[i]).toBe(5);
    expect(h.maxPlayers[i]).toBe(10);
  });

  it('ignores a ring file that is not one (the history starts again, nothing throws)', async () => {
    await writeFile(join(dir, 's1.hist'), Buffer.from('not a history file'));
    await store.record('s1', base, point(42));
    const h = await store.read('s1', '1h', (base + 1) * MINUTE, null);
    expect(h.cpu.filter((v) => v !== null)).toEqual([42]);
  });

  it('drops a torn journal record and folds the journal before appending after it', async () => {
    await store.record('s1', base, point(1));
    await appendFile(join(dir, 's1.journal'), Buffer.alloc(7, 0xff)); // a crash mid-append
    const fresh = new HistoryStore(dir); // a restarted daemon
    await fresh.record('s1', base + 1, point(2));
    expect((await stat(join(dir, 's1.journal'))).size).toBe(RECORD_BYTES);
    expect((await stat(join(dir, 's1.hist'))).size).toBe(FILE_BYTES);
    const h = await fresh.read('s1', '1h', (base + 2) * MINUTE, null);
    expect(h.cpu.slice(-3)).toEqual([1, 2, null]);
  });

  it('rewrites the ring file after COMPACT_AFTER minutes and empties the journal', async () => {
    for (let m = 0; m <= COMPACT_AFTER; m++) await store.record('s1', base + m, point(m));
    expect((await stat(join(dir, 's1.journal'))).size).toBe(RECORD_BYTES);
    const h = await store.read('s1', '24h', (base + COMPACT_AFTER + 1) * MINUTE, null);
    expect(h.cpu.filter((v) => v !== null)).toHaveLength(COMPACT_AFTER + 1);
    expect(await store.bytesOf('s1')).toBe(FILE_BYTES + RECORD_BYTES);
  });

  it('replays a journal already folded into the ring file to the same history (a crash mid-compaction)', async () => {
    for (let m = 0; m < 30; m++) await store.record('s1', base + m, point(m, m % 4, 4));
    const journal = await readFile(join(dir, 's1.journal'));
    const whole = await store.load('s1');
    await writeFile(join(dir, 's1.hist'), encodeSeries(whole)); // renamed into place, journal not yet emptied
    expect(await readFile(join(dir, 's1.journal'))).toEqual(journal);
    const now = (base + 31) * MINUTE;
    expect(await store.read('s1', '30d', now, null)).toEqual(whole.read('30d', now, null));
    expect(await store.read('s1', '24h', now, null)).toEqual(whole.read('24h', now, null));
  });

  it('forgets a deleted server’s files', async () => {
    await store.record('s1', base, point(1));
    await store.remove('s1');
    expect(await store.bytesOf('s1')).toBe(0);
    expect((await store.read('s1', '1h', (base + 1) * MINUTE, null)).cpu.every((v) => v === null)).toBe(true);
  });

  it('keeps a lap-old slot from showing as a new point', () => {
    const series = new Series();
    series.put(base, point(7));
    const lapLater = base + 2880;
    expect(series.read('1h', lapLater * MINUTE, null).cpu.every((v) => v === null)).toBe(true);
  });
});
