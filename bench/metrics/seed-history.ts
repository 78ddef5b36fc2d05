/**
 * Fills a node's history store as 30 days of a busy server would: every minute of the last 30 days put into
 * the rings (so both are full), written as the ring file, plus a journal of `journalMinutes` minutes. Every server
 * gets the same bytes (built once: what they hold does not change what reading them costs).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeRecord, encodeSeries } from '../../apps/daemon/src/history/codec';
import { Series } from '../../apps/daemon/src/history/series';

const point = (m: number) => ({
  cpu: 20 + 15 * Math.sin(m / 90),
  memory: 600e6 + 100e6 * Math.sin(m / 300),
  disk: 2e9 + m * 1000,
  players: (m % 24) + 1,
  maxPlayers: 32,
});

export function historyFiles(nowMs: number, journalMinutes: number): { ring: Buffer; journal: Buffer } {
  const series = new Series();
  const last = Math.floor(nowMs / 60_000) - journalMinutes;
  for (let m = last - 30 * 24 * 60; m <= last; m++) series.put(m, point(m));
  const records = Array.from({ length: journalMinutes }, (_, i) =>
    encodeRecord(last + 1 + i, point(last + 1 + i)),
  );
  return { ring: encodeSeries(series), journal: Buffer.concat(records) };
}

export async function seedHistory(
  dir: string,
  id: string,
  files: { ring: Buffer; journal: Buffer },
): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${id}.hist`), files.ring);
  await writeFile(join(dir, `${id}.journal`), files.journal);
}
